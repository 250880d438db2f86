import { findPhoneNumbersInText, isValidPhoneNumber, type CountryCode } from "libphonenumber-js";
import { PHONE_MASK, type ContactSpan } from "./contact-masks";

// Phone numbers in free text, found by libphonenumber-js (a port of Google's libphonenumber and its number
// finder): numbers written with a country code in any country's format (+44 20 7946 0958, +1 (555) 010-4477),
// and numbers without one in the North American format (555.010.4477, (555) 010-4477). A number written as
// one counts when its length is one the country's numbering plan allows, assigned or not, so the 555 numbers of
// films and examples are found too; a bare run of digits (2025550143) only when it is a valid number, since
// order and ticket numbers look the same (1234567890). Dates, times and version strings are the finder's to
// tell apart; a number glued to a letter or another digit (an id such as INV2025550143) is not one, as the
// finder itself judges at its stricter levels.
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
    const windows = Math.max(1, Math.ceil((end - start - WINDOW) / (WINDOW / 2)) + 1);
    if (windows <= asksLeft) {
      asksLeft -= windows;
      findInRun(text, start, end, spans);
    } else {
      asksLeft = 0;
      spans.push({ ...trimmed(text, start, end), mask: PHONE_MASK });
    }
  }
}

/** Asks the finder about the run [start, end), a window at a time. */
function findInRun(text: string, start: number, end: number, spans: ContactSpan[]): void {
  for (let from = start; ; from += WINDOW / 2) {
    const to = Math.min(end, from + WINDOW);
    const written = text
      .slice(from, Math.min(text.length, to + CONTEXT_AFTER))
      .replace(OTHER_SPACE, " ")
      .replace(FULL_WIDTH_PLUS, "+");
    const window = withInternationalPrefix(written);
    for (const found of findPhoneNumbersInText(window, { defaultCountry: DEFAULT_COUNTRY, extended: true })) {
      // A number written with the 00 exit is found from the plus sign standing in for its second 0.
      const numberStart = from + found.startsAt - (written[found.startsAt] !== window[found.startsAt] ? 1 : 0);
      const numberEnd = from + found.endsAt;
      const unformatted = /^\d+$/.test(window.slice(found.startsAt, found.endsAt));
      if (numberStart < to && !isGlued(text, numberStart, numberEnd) && (!unformatted || found.number.isValid())) {
        spans.push({ start: numberStart, end: numberEnd, mask: PHONE_MASK });
      }
    }
    if (to === end) return;
  }
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
  while (!DIGIT.test(text[start]!)) start++;
  while (!DIGIT.test(text[end - 1]!)) end--;
  return { start, end };
}
