import { findPhoneNumbersInText, isPossiblePhoneNumber, isValidPhoneNumber, type CountryCode } from "libphonenumber-js";
import { PHONE_MASK, type ContactSpan } from "./contact-masks";

// Phone numbers in free text, found by libphonenumber-js (a port of Google's libphonenumber and its number
// finder): numbers written with a country code in any country's format (+44 20 7946 0958, +1 (555) 010-4477),
// and numbers without one in the North American format (555.010.4477, (555) 010-4477). A number written as
// one counts when its length is one the country's numbering plan allows, assigned or not, so the 555 numbers of
// films and examples are found too; a bare run of digits (2025550143) only when it is a valid number, since
// order and ticket numbers look the same (1234567890). Dates, times and version strings are the finder's to
// tell apart; a number glued to a letter or another digit (an id such as INV2025550143) is not one, as the
// finder itself judges at its stricter levels. Numbers dialled with a 00 exit (0044 20 7946 0958) or 011, written
// with typographic spaces (U+202F, U+2009…), or followed in the same run by more digits (another number, a date,
// a stray digit that makes the run too long to be one number) are found too, and so is a JSON number that is a
// phone number (isPhoneNumberValue).
//
// The finder costs far more per candidate than the scan that finds candidates, and more still on a long run of
// digits and spaces, so it is asked only about stretches that could hold a number: runs of digits and phone
// punctuation with at least ten digits (a North American number), or seven after a plus sign, and not glued to
// letters or digits at both ends (the inside of an id such as a UUID); in overlapping windows when a run is long.
// So that a text full of such runs stays linear, it is asked at most about one window per 1,024 characters of the
// text (plus 64); past that, every remaining run is masked without asking: more is hidden than needed, nothing is
// left out.

const DEFAULT_COUNTRY: CountryCode = "US";
// The fewest digits of a number the finder can find: with a country code, no numbering plan has shorter ones;
// without, a North American number has ten. Shorter runs abound (dates, amounts, KPIs).
const MIN_DIGITS_AFTER_PLUS = 7;
const MIN_DIGITS = 10;
// Longer than any number as people write it; windows overlap by half, so every number of up to 32 characters
// lies whole in one of them.
const WINDOW = 64;
// What the finder reads after a candidate to tell a time stamp (2026-11-21 17:30) from a number.
const CONTEXT_AFTER = 3;
const ASKS_BASE = 64;
const CHARACTERS_PER_ASK = 1024;

// The finder's own character classes (libphonenumber-js's VALID_DIGITS, VALID_PUNCTUATION and PLUS_CHARS):
// ASCII, full-width and Arabic-Indic digits; dashes, slashes, dots, spaces, brackets, tildes and plus signs. And
// every other space (U+202F, U+2009…: typesetting tools write numbers with them), which the finder does not know:
// it is shown them as plain spaces.
const DIGITS = "0-9\uff10-\uff19\u0660-\u0669\u06f0-\u06f9";
const PLUS_SIGNS = "+\uff0b";
const OTHER_SPACES = "\u1680\u2000-\u200a\u202f\u205f";
const PUNCTUATION =
  "\\-\u2010-\u2015\u2212\u30fc\uff0d\uff0f/\uff0e. \u00a0\u00ad\u200b\u2060\u3000()\uff08\uff09\uff3b\uff3d\\[\\]~\u2053\u223c\uff5e" +
  OTHER_SPACES;
const OTHER_SPACE = new RegExp(`[${OTHER_SPACES}]`, "g");
// The finder takes a full-width plus sign only before full-width digits (＋１ ５５５…, not ＋44 20…).
const FULL_WIDTH_PLUS = /\uff0b/g;
// A run of those characters from a digit, plus sign or opening bracket, seven or more long (a shorter one
// cannot hold seven digits). Linear: the first character and six more decide where a run may start, and the
// greedy tail has nothing after it to backtrack for.
const PHONE_RUN = new RegExp(`[${DIGITS}${PLUS_SIGNS}(\uff08[\uff3b][${DIGITS}${PLUS_SIGNS}${PUNCTUATION}]{6,}`, "g");
const DIGIT = new RegExp(`[${DIGITS}]`);
const PLUS_SIGN = new RegExp(`[${PLUS_SIGNS}]`);

/** Adds a span for every phone number in the text. */
export function findPhoneNumbers(text: string, spans: ContactSpan[]): void {
  let asksLeft = ASKS_BASE + Math.floor(text.length / CHARACTERS_PER_ASK);
  for (const run of text.matchAll(PHONE_RUN)) {
    const start = run.index;
    const end = start + run[0].length;
    let digits = 0;
    for (const char of run[0]) if (DIGIT.test(char)) digits++;
    if (digits < (PLUS_SIGN.test(run[0]) ? MIN_DIGITS_AFTER_PLUS : MIN_DIGITS) || isInsideWord(text, start, end)) {
      continue;
    }
    const windows = windowsOf(start, end);
    if (windows > asksLeft) {
      asksLeft = 0;
      spans.push({ ...trimmed(text, start, end), mask: PHONE_MASK });
      continue;
    }
    asksLeft -= windows;
    const before = spans.length;
    findInRun(text, start, end, spans, CONTEXT_AFTER);
    // The finder takes a run for one number, and a number followed by more digits after a space (another number,
    // a date, a stray digit) for one too long to be any. So each part of the run that starts a number and holds
    // none found is asked about alone, and failing that, a number dialled internationally (+, 00 or 011) is masked
    // as far as its digits make a number of possible length for its country code.
    // Parts and numbers found both run left to right: one pass over each, so a long run costs no more per part.
    const found = spans.slice(before).sort((a, b) => a.start - b.start);
    let next = 0;
    let foundUpTo = -1;
    let foundFrom = -1;
    const parts = numberStartingParts(text, start, end);
    for (const [partStart, partEnd] of parts) {
      // Found when a number found holds the part's first digit (what follows may be another number), and either
      // starts in the part or holds it whole: a number found from an earlier part may have run on into this one's
      // first digits (+49 151 1234 5678 011 1 read as one long German number), leaving the rest of it unasked.
      const { start: lead, end: lastDigitEnd } = trimmed(text, partStart, partEnd);
      for (; next < found.length && found[next]!.start <= lead; next++) {
        if (found[next]!.end > foundUpTo) [foundUpTo, foundFrom] = [found[next]!.end, found[next]!.start];
      }
      if (foundUpTo > lead && (foundFrom >= partStart || foundUpTo >= lastDigitEnd)) continue;
      if (parts.length > 1) {
        const cost = windowsOf(partStart, partEnd);
        const asked = spans.length;
        if (cost <= asksLeft) findInRun(text, partStart, partEnd, spans, 0);
        asksLeft = Math.max(0, asksLeft - cost);
        if (spans.slice(asked).some((span) => span.start <= lead && span.end > lead)) continue;
      }
      const possible = possibleInternationalNumber(text, partStart, partEnd);
      if (possible) spans.push({ ...possible, mask: PHONE_MASK });
    }
  }
}

function windowsOf(start: number, end: number): number {
  return Math.max(1, Math.ceil((end - start - WINDOW) / (WINDOW / 2)) + 1);
}

// Where, after a space inside a run, a new number starts: a plus sign, or a 00 or 011 exit. (Not a bracket: +1 (202)
// is one number.)
const NUMBER_START = new RegExp(`(?<=[\\s${OTHER_SPACES}])(?:[${PLUS_SIGNS}]|00[1-9]|011)`, "g");

/** The parts of the run [start, end) split where a number starts, each without its end's spaces. */
function numberStartingParts(text: string, start: number, end: number): [number, number][] {
  const run = text.slice(start, end);
  const bounds = [start, ...[...run.matchAll(NUMBER_START)].map((match) => start + match.index), end];
  const parts: [number, number][] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const { start: firstDigit, end: partEnd } = trimmed(text, bounds[i]!, bounds[i + 1]!);
    if (partEnd - firstDigit >= MIN_DIGITS_AFTER_PLUS) parts.push([bounds[i]!, partEnd]);
  }
  return parts;
}

/** Asks the finder about the run [start, end), a window at a time, each with `contextAfter` characters after it. */
function findInRun(text: string, start: number, end: number, spans: ContactSpan[], contextAfter: number): void {
  for (let from = start; ; from += WINDOW / 2) {
    const to = Math.min(end, from + WINDOW);
    const written = text
      .slice(from, Math.min(text.length, to + contextAfter))
      .replace(OTHER_SPACE, " ")
      .replace(FULL_WIDTH_PLUS, "+");
    const window = withInternationalPrefix(written);
    for (const found of findPhoneNumbersInText(window, { defaultCountry: DEFAULT_COUNTRY, extended: true })) {
      // A number written with the 00 exit is found from the plus sign standing in for its second 0.
      const numberStart = from + found.startsAt - (written[found.startsAt] !== window[found.startsAt] ? 1 : 0);
      // The finder may run on into the context after the run (", 0" of a list of numbers): the run ends it.
      const numberEnd = Math.min(from + found.endsAt, end);
      const unformatted = /^\d+$/.test(window.slice(found.startsAt, found.endsAt));
      if (numberStart < to && !isGlued(text, numberStart, numberEnd) && (!unformatted || found.number.isValid())) {
        spans.push({ start: numberStart, end: numberEnd, mask: PHONE_MASK });
      }
    }
    if (to === end) return;
  }
}

// The longest a number is with its country code (E.164), and the shortest the finder finds.
const MAX_INTERNATIONAL_DIGITS = 15;
const EXIT = /^(?:[+\uff0b]|00(?=[^0])|011)/;
// What may stand before a number's exit in a run: spaces and opening brackets.
const OPENING = new RegExp(`[\\s${OTHER_SPACES}(\uff08[\uff3b]`);

/**
 * The stretch of [start, end) from its exit (a plus sign, 00 or 011) to the last digit of the longest number of
 * possible length for its country code that its digits begin with, or undefined.
 */
function possibleInternationalNumber(
  text: string,
  start: number,
  end: number,
): { start: number; end: number } | undefined {
  let opening = start;
  while (opening < end && OPENING.test(text[opening]!)) opening++;
  const plus = PLUS_SIGN.test(text[opening] ?? "");
  const { start: first } = trimmed(text, opening, end);
  const exit = EXIT.exec(plus ? "+" : digitsOf(text, first, Math.min(end, first + 8)).slice(0, 3))?.[0];
  if (!exit) return undefined;
  const positions: number[] = [];
  for (let i = first; i < end && positions.length < exit.length - (plus ? 1 : 0) + MAX_INTERNATIONAL_DIGITS; i++) {
    if (DIGIT.test(text[i]!)) positions.push(i);
  }
  const skip = plus ? 0 : exit.length;
  const digits = positions.slice(skip).map((i) => digitValue(text[i]!));
  for (let n = digits.length; n >= MIN_DIGITS_AFTER_PLUS; n--) {
    if (isPossiblePhoneNumber(`+${digits.slice(0, n).join("")}`)) {
      return { start: plus ? opening : first, end: positions[skip + n - 1]! + 1 };
    }
  }
  return undefined;
}

/** The digits in text[start, end), as ASCII. */
function digitsOf(text: string, start: number, end: number): string {
  let digits = "";
  for (let i = start; i < end; i++) if (DIGIT.test(text[i]!)) digits += digitValue(text[i]!);
  return digits;
}

/** The value of a digit of the finder's classes (ASCII, full-width, Arabic-Indic, extended Arabic-Indic). */
function digitValue(char: string): number {
  const code = char.charCodeAt(0);
  for (const zero of [0x30, 0xff10, 0x660, 0x6f0]) if (code >= zero && code <= zero + 9) return code - zero;
  return NaN;
}

// Most of the world dials out with 00 (0044 20 7946 0958), which the finder reads as a number only with a country
// of that plan in mind: it is shown " +" in its place, as the number is meant, which keeps every offset. (011, North
// America's exit, it reads as one already.)
const EXIT_00 = /(?<![\p{L}\p{N}+])00(?=[\s.-]?[1-9])/gu;

function withInternationalPrefix(window: string): string {
  return window.includes("00") ? window.replace(EXIT_00, " +") : window;
}

/**
 * Whether a JSON number is a phone number, judged as a bare run of digits in text is: a valid North American number
 * (10 digits), or a valid number with its country code in front (11 to 15 digits, E.164's longest; most countries'
 * numbers with their code are that long, and a shorter reading catches round amounts: 2010000000 is +20 10000000).
 * Written as a number, a phone number has no plus sign and no leading 0; measurements, money, counts and epoch
 * seconds are rarely valid numbers of a numbering plan.
 */
export function isPhoneNumberValue(value: number): boolean {
  if (!Number.isSafeInteger(value) || value < 1e9) return false;
  const digits = String(value);
  if (digits.length === MIN_DIGITS) return isValidPhoneNumber(digits, DEFAULT_COUNTRY);
  return digits.length <= 15 && isValidPhoneNumber(`+${digits}`);
}

const GLUING_CHAR_AT = /[\p{L}\p{N}%\p{Sc}]/uy;
const LEADING_CODES = new Set([0x2b, 0xff0b, 0x28, 0xff08, 0x5b, 0xff3b]);

function gluingAt(text: string, index: number): boolean {
  GLUING_CHAR_AT.lastIndex = index;
  return index >= 0 && index < text.length && GLUING_CHAR_AT.test(text);
}

/** Whether the number at [start, end) touches a letter, digit, percent or currency sign: part of something else. */
function isGlued(text: string, start: number, end: number): boolean {
  return (!LEADING_CODES.has(text.charCodeAt(start)) && gluingAt(text, start - 1)) || gluingAt(text, end);
}

/** Whether the run [start, end) has digits glued to a word at both ends, as inside an id (a UUID). */
function isInsideWord(text: string, start: number, end: number): boolean {
  const digitAt = (index: number) => DIGIT.test(text[index]!);
  return digitAt(start) && gluingAt(text, start - 1) && digitAt(end - 1) && gluingAt(text, end);
}

/** The run [start, end) without the spaces and punctuation at either end. */
function trimmed(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && !DIGIT.test(text[start]!)) start++;
  while (end > start && !DIGIT.test(text[end - 1]!)) end--;
  return { start, end };
}
