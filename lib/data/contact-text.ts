import { findContactLinks } from "./contact-links";
import { findPhoneNumbers } from "./contact-phones";
import { applyMasks, EMAIL_MASK, HANDLE_MASK, MENTION_MASK, type ContactSpan } from "./contact-masks";
import { contactView, originalSpan } from "./contact-view";
import { readableText, type TextRange } from "@/lib/text/invisible-characters";
import type { KnownContacts } from "./known-contact-matcher";

// Contact details written inside free text (report strings and object keys), each found by its own finder and
// masked in one pass (lib/data/contact-masks.ts): e-mail addresses in any script, chat mentions such as Slack's
// <@U0MAYA03>, <@W123|maya> and <!subteam^S123> or Discord's <@!123> (both here), links that open a chat or a
// call (lib/data/contact-links.ts), phone numbers (lib/data/contact-phones.ts), and the organization's own
// members' addresses and handles however they are spelled (lib/data/known-contact-matcher.ts).
//
// The finders read the text as a person reads it: without invisible and bidirectional-control characters
// (lib/data/invisible-characters.ts, which the served text loses too), decoded and with an address's spelled-out
// parts made plain (lib/data/contact-view.ts: maya%40acme.example, maya (at) acme (dot) example), and what a
// right-to-left override displayed reversed is read reversed as well. What they find is masked in the served text
// whole, encoded spelling included.
//
// Addresses and mentions are found by a hand-written scanner rather than a regular expression, so the cost is
// linear by construction: the main loop only moves forward; from each at-sign one scan goes left over the local
// part and one goes right over the domain, and neither crosses another at-sign (it is not a local-part or domain
// character), so those scans cover disjoint stretches; a quoted local part or an address literal is looked for
// over a bounded stretch; a mention is read forward from its `<` and stops at the next `<`. Every character is
// looked at a bounded number of times, however long the runs of letters, at-signs or dots. (A pattern like
// /[\w.]+@…/g restarts its leading run at every position and so backtracks quadratically on a long unbroken
// string.)

// The ASCII dot and its full-width and small forms (look-alikes are made plain by the view).
const DOT_CODES = new Set([0x2e, 0xff0e, 0xfe52]);
// The ideographic full stops end sentences next to addresses, and are also written as an address's dot to slip
// past filters (maya@acme。example): they join two labels only when an ASCII letter or digit follows.
const IDEOGRAPHIC_DOT_CODES = new Set([0x3002, 0xff61]);
// Besides word characters, a local part may hold . _ % + - (and the full-width dot).
const LOCAL_PUNCTUATION_CODES = new Set([0x2e, 0xff0e, 0x5f, 0x25, 0x2b, 0x2d]);
const HYPHEN = 0x2d;
// Letters, combining marks, digits and invisible format characters of any script, tested where they stand.
const WORD_CHAR_AT = /[\p{L}\p{M}\p{N}\p{Cf}]/uy;
const LETTER_AT = /[\p{L}\p{M}]/uy;

/** The text as it may be served: invisible characters removed, every contact detail the finders know masked. */
export function maskContactText(text: string, known: KnownContacts): string {
  const readable = readableText(text);
  const spans: ContactSpan[] = [];
  findContactDetails(readable.text, known, spans);
  for (const range of readable.reversed) findReversed(readable.text, range, known, spans);
  return applyMasks(readable.text, spans);
}

/** Adds a span of `text` for every contact detail found in the text as read (its view). */
function findContactDetails(text: string, known: KnownContacts, spans: ContactSpan[]): void {
  const view = contactView(text);
  // Most text reads as it is written: its spans are the text's own.
  const found: ContactSpan[] = view.starts ? [] : spans;
  findAddressesAndMentions(view.text, found);
  findContactLinks(view.text, found);
  findPhoneNumbers(view.text, found);
  known.find(view.text, found);
  if (!view.starts) return;
  for (const { start, end, mask } of found) spans.push({ ...originalSpan(view, start, end), mask });
  // Joining an address's parts can join a member's handle to the next word: look for their details as written too.
  known.find(text, spans);
}

/** Adds a span for every contact detail that the stretch `range` of `text` shows when displayed reversed. */
function findReversed(text: string, range: TextRange, known: KnownContacts, spans: ContactSpan[]): void {
  // By code point, so a surrogate pair keeps its order: a span [s, e) of the reversed text is [end - e, end - s).
  const reversed = Array.from(text.slice(range.start, range.end)).reverse().join("");
  const found: ContactSpan[] = [];
  findContactDetails(reversed, known, found);
  for (const { start, end, mask } of found) spans.push({ start: range.end - end, end: range.end - start, mask });
}

/** Adds a span for every e-mail address and chat mention in the text, in order. */
function findAddressesAndMentions(text: string, spans: ContactSpan[]): void {
  // The end of the last one found: scans never go back before it.
  let floor = 0;
  const found = (start: number, end: number, mask: string) => {
    spans.push({ start, end, mask });
    floor = end;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LESS_THAN) {
      const end = mentionEnd(text, i);
      if (end !== -1) found(i, end, MENTION_MASK);
    } else if (isAtSign(code)) {
      const start = localPartStart(text, i, floor);
      const end = domainEnd(text, i + 1);
      if (end !== -1 && start < i) found(start, end, EMAIL_MASK);
      // An at-sign that starts a word and is followed by a domain: a dotted chat handle (@maya.chen), or the
      // second half of an address broken at the at-sign (maya⏎@acme.example). Either way a contact detail.
      else if (end !== -1 && (i === 0 || !isWordCharAt(text, i - 1))) found(i, end, HANDLE_MASK);
    }
    i = Math.max(i, floor - 1);
  }
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
// What follows `<` in a mention of a person or group: Slack <@U…>, <!subteam^S…>; Discord <@123>, <@!123>, <@&123>.
const MENTION_OPENINGS = ["@", "@!", "@&", "!subteam^"];
// A mention's optional label (<@W123|maya>) is short; a longer stretch before `>` is ordinary text.
const MENTION_LABEL_MAX = 200;

/** The end (after `>`) of the chat mention opening with the `<` at `open`, or -1 when there is none. */
function mentionEnd(text: string, open: number): number {
  for (const opening of MENTION_OPENINGS) {
    if (!text.startsWith(opening, open + 1)) continue;
    let i = open + 1 + opening.length;
    const idStart = i;
    while (i < text.length && isAsciiAlphanumeric(text.charCodeAt(i))) i++;
    if (i === idStart) continue;
    if (text.charCodeAt(i) === 0x7c /* | */) {
      const labelEnd = Math.min(text.length, i + 1 + MENTION_LABEL_MAX);
      for (i++; i < labelEnd && text.charCodeAt(i) !== GREATER_THAN && text.charCodeAt(i) !== LESS_THAN; i++);
    }
    return text.charCodeAt(i) === GREATER_THAN ? i + 1 : -1;
  }
  return -1;
}

/** The ASCII at-sign and its full-width and small forms, which read the same to a person. */
function isAtSign(code: number): boolean {
  return code === 0x40 || code === 0xff20 || code === 0xfe6b;
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function testAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

function isWordCharAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code < 0x80 ? isAsciiAlphanumeric(code) : testAt(WORD_CHAR_AT, text, index);
}

function isLetterAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code < 0x80 ? (code >= 65 && code <= 90) || (code >= 97 && code <= 122) : testAt(LETTER_AT, text, index);
}

/** Where the character ending just before `end` starts (a surrogate pair is one character). */
function charStartBefore(text: string, end: number): number {
  const low = text.charCodeAt(end - 1);
  const high = end >= 2 ? text.charCodeAt(end - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? end - 2 : end - 1;
}

/** The start of the local part that ends at the at-sign at `at`, never reaching back before `floor`. */
function localPartStart(text: string, at: number, floor: number): number {
  const quoted = quotedLocalPartStart(text, at, floor);
  if (quoted !== -1) return quoted;
  let start = at;
  while (start > floor) {
    const previous = charStartBefore(text, start);
    if (!isWordCharAt(text, previous) && !LOCAL_PUNCTUATION_CODES.has(text.charCodeAt(previous))) break;
    start = previous;
  }
  return Math.max(start, floor);
}

// A quoted local part ("maya chen"@acme.example) may hold spaces and most punctuation, so it is looked for only
// over the longest local part an address may have (RFC 5321: 64 octets), never across another at-sign.
const QUOTED_LOCAL_PART_MAX = 64;
const CLOSING_QUOTE_CODES = new Set([0x22, 0xff02, 0x201d]);
const OPENING_QUOTE_CODES = new Set([0x22, 0xff02, 0x201c]);

/** The opening quote of a quoted local part that ends at the at-sign at `at`, or -1 when there is none. */
function quotedLocalPartStart(text: string, at: number, floor: number): number {
  if (at - 1 <= floor || !CLOSING_QUOTE_CODES.has(text.charCodeAt(at - 1))) return -1;
  const limit = Math.max(floor, at - 2 - QUOTED_LOCAL_PART_MAX);
  for (let i = at - 2; i >= limit; i--) {
    const code = text.charCodeAt(i);
    if (OPENING_QUOTE_CODES.has(code)) return i < at - 2 ? i : -1;
    if (isAtSign(code) || code === 0x0a || code === 0x0d) return -1;
  }
  return -1;
}

/**
 * The end of the longest domain starting at `from`: labels of letters, digits and hyphens joined by dots,
 * at least two labels, the last (the top-level domain) starting with a letter and at least two characters
 * long, so version strings such as `next@16.0.1` are not taken for addresses; or an address literal such as
 * `[192.0.2.1]` or `[IPv6:2001:db8::1]`. -1 when there is none.
 */
function domainEnd(text: string, from: number): number {
  if (text.charCodeAt(from) === OPENING_BRACKET) return addressLiteralEnd(text, from);
  let best = -1;
  let labels = 0;
  let labelLength = 0;
  let labelStartsWithLetter = false;
  let i = from;
  for (; i < text.length; i += text.codePointAt(i)! > 0xffff ? 2 : 1) {
    const code = text.charCodeAt(i);
    if (code === HYPHEN || isWordCharAt(text, i)) {
      if (labelLength === 0) labelStartsWithLetter = isLetterAt(text, i);
      labelLength++;
      continue;
    }
    const isDot =
      DOT_CODES.has(code) || (IDEOGRAPHIC_DOT_CODES.has(code) && isAsciiAlphanumeric(text.charCodeAt(i + 1)));
    if (!isDot || labelLength === 0) break;
    labels++;
    if (labels >= 2 && labelLength >= 2 && labelStartsWithLetter) best = i;
    labelLength = 0;
  }
  if (labelLength > 0 && labels >= 1 && labelLength >= 2 && labelStartsWithLetter) best = i;
  return best;
}

const OPENING_BRACKET = 0x5b;
const CLOSING_BRACKET = 0x5d;
// "IPv6:" and 8 groups of 4 hex digits with colons, with room to spare.
const ADDRESS_LITERAL_MAX = 64;

/** The end (after `]`) of the address literal opening at `open`, or -1 when there is none. */
function addressLiteralEnd(text: string, open: number): number {
  let digits = 0;
  const limit = Math.min(text.length, open + 1 + ADDRESS_LITERAL_MAX);
  for (let i = open + 1; i < limit; i++) {
    const code = text.charCodeAt(i);
    if (code === CLOSING_BRACKET) return digits > 0 ? i + 1 : -1;
    if (code >= 48 && code <= 57) digits++;
    else if (!isAsciiAlphanumeric(code) && code !== 0x2e /* . */ && code !== 0x3a /* : */) return -1;
  }
  return -1;
}
