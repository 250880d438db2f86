import { DecodingMode, HtmlEntityDecoder } from "entities/decode";

// The contact-detail finders (lib/data/contact-text.ts) read text as a reader would take it in, not as it is
// stored: maya%40acme.example, maya&#64;acme.example, maya (at) acme (dot) example, maya @ acme.example and
// maya@acme․example (a one-dot leader) are all an address to a person, and tel%3A%2B1555… is a tel: link. A view is
// that reading of a text, with each of its characters tied to the stretch of the text it was read from, so that
// what a finder finds in the view is masked in the text whole, encoded spelling and all.
//
// Two readings, each one forward pass with a bounded look around each character, so a view costs time linear in
// the text: decoding (percent-encoding as UTF-8, HTML character references as a browser decodes them in text,
// each repeated while it finds more, at most DECODING_ROUNDS times: %2540 is %40 is @), and the address forms
// below. A text with nothing to read differently is its own view, at the cost of two regular-expression tests.

export interface ContactView {
  /** What the finders read. */
  text: string;
  /**
   * For each UTF-16 unit of `text`, the stretch of the original text it was read from ([starts[i], ends[i]));
   * null when `text` is the original itself.
   */
  starts: Int32Array | null;
  ends: Int32Array | null;
}

/** The stretch of the original text that a view's [start, end) was read from. */
export function originalSpan(view: ContactView, start: number, end: number): { start: number; end: number } {
  if (!view.starts || !view.ends) return { start, end };
  return { start: view.starts[start]!, end: view.ends[end - 1]! };
}

/** The text as the finders read it: decoded, and with the address forms below made plain. */
export function contactView(text: string): ContactView {
  let view: ContactView = { text, starts: null, ends: null };
  if (!READ_DIFFERENTLY.test(text)) return view;
  for (let round = 0; round < DECODING_ROUNDS && ENCODED.test(view.text); round++) {
    const decoded = decode(view.text);
    if (decoded.text === view.text) break;
    view = compose(view, decoded);
  }
  return ADDRESS_FORM.test(view.text) ? compose(view, plainAddressForms(view.text)) : view;
}

// %2540 (an encoded %40) and &amp;#64; are decoded twice; more rounds than a tool ever applies would only cost.
const DECODING_ROUNDS = 3;
const ENCODED = /%[0-9a-f]{2}|&[#a-z]/i;

/** `outer`, read over the text of `inner`, tied to `inner`'s original instead. */
function compose(inner: ContactView, outer: ContactView): ContactView {
  if (!outer.starts || !outer.ends) return inner;
  if (!inner.starts || !inner.ends) return outer;
  const starts = new Int32Array(outer.text.length);
  const ends = new Int32Array(outer.text.length);
  for (let i = 0; i < outer.text.length; i++) {
    starts[i] = inner.starts[outer.starts![i]!]!;
    ends[i] = inner.ends[outer.ends![i]! - 1]!;
  }
  return { text: outer.text, starts, ends };
}

/**
 * A view under construction: the UTF-16 units read so far and where each came from, in typed arrays that grow by
 * doubling (a view is built a unit at a time, and a megabyte of text is a million of them).
 */
class ViewBuilder {
  private units: Uint16Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private length = 0;
  private changed = false;

  constructor(capacity: number) {
    this.units = new Uint16Array(capacity + 16);
    this.starts = new Int32Array(capacity + 16);
    this.ends = new Int32Array(capacity + 16);
  }

  /** Appends the unit `unit` read from [start, end) of the text; `same`: it is that stretch as it is. */
  push(unit: number, start: number, end: number, same = true): void {
    if (this.length === this.units.length) this.grow();
    this.units[this.length] = unit;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
    this.changed ||= !same;
  }

  /** Appends every unit of `read`, all read from [start, end) of the text. */
  pushText(read: string, start: number, end: number): void {
    for (let i = 0; i < read.length; i++) this.push(read.charCodeAt(i), start, end, false);
  }

  /** How many units of white space the view ends with, up to `max`. */
  trailingSpace(max: number): number {
    let count = 0;
    while (count < max && count < this.length && SPACE.test(String.fromCharCode(this.unitBeforeEnd(count)))) count++;
    return count;
  }

  /** The unit `back` units before the end (0: the last), or -1 before the start. */
  unitBeforeEnd(back: number): number {
    return back < this.length ? this.units[this.length - 1 - back]! : -1;
  }

  /** Leaves out the last `count` units: the characters they were read from are left out of the view. */
  drop(count: number): void {
    this.length -= count;
    this.changed ||= count > 0;
  }

  build(original: string): ContactView {
    if (!this.changed) return { text: original, starts: null, ends: null };
    return {
      text: UTF16.decode(this.units.subarray(0, this.length)),
      starts: this.starts.slice(0, this.length),
      ends: this.ends.slice(0, this.length),
    };
  }

  private grow(): void {
    const grown = <A extends Uint16Array | Int32Array>(array: A): A => {
      const bigger = new (array.constructor as new (length: number) => A)(array.length * 2);
      bigger.set(array);
      return bigger;
    };
    this.units = grown(this.units);
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
  }
}

// Report content holds no lone surrogates (jsonb refuses them), so decoding the units gives them back as they were.
const UTF16 = new TextDecoder("utf-16le");
const SPACE = /^\s$/;

// ---- Decoding ----

const entityDecoder = (() => {
  let decoded: number[] = [];
  const decoder = new HtmlEntityDecoder((codePoint) => decoded.push(codePoint));
  /** The characters the reference at `ampersand` stands for and its length, or undefined when there is none. */
  return (text: string, ampersand: number): { read: string; length: number } | undefined => {
    decoded = [];
    decoder.startEntity(DecodingMode.Legacy);
    let length = decoder.write(text, ampersand + 1);
    if (length < 0) length = decoder.end();
    if (length <= 0 || decoded.length === 0) return undefined;
    return { read: String.fromCodePoint(...decoded), length };
  };
})();

function decode(text: string): ContactView {
  const view = new ViewBuilder(text.length);
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (code === PERCENT) {
      const read = percentEncoded(text, i);
      if (read) {
        view.pushText(read.read, i, i + read.length);
        i += read.length;
        continue;
      }
    } else if (code === AMPERSAND) {
      const read = entityDecoder(text, i);
      if (read) {
        view.pushText(read.read, i, i + read.length);
        i += read.length;
        continue;
      }
    }
    view.push(code, i, i + 1);
    i++;
  }
  return view.build(text);
}

const PERCENT = 0x25;
const AMPERSAND = 0x26;

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The byte written as %XX at `at`, or -1. */
function byteAt(text: string, at: number): number {
  if (text.charCodeAt(at) !== PERCENT) return -1;
  const high = hexValue(text.charCodeAt(at + 1));
  const low = hexValue(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
}

/**
 * The character that the UTF-8 sequence of %XX triplets at `at` encodes and the sequence's length, or undefined
 * when there is no well-formed sequence there (then the % is read as itself).
 */
function percentEncoded(text: string, at: number): { read: string; length: number } | undefined {
  const lead = byteAt(text, at);
  if (lead < 0) return undefined;
  if (lead < 0x80) return { read: String.fromCharCode(lead), length: 3 };
  // The continuation bytes a lead byte takes, and the range its first one must lie in (no overlong forms, no
  // surrogates, nothing past U+10FFFF).
  let count: number;
  let low = 0x80;
  let high = 0xbf;
  let codePoint: number;
  if (lead >= 0xc2 && lead <= 0xdf) [count, codePoint] = [1, lead & 0x1f];
  else if (lead >= 0xe0 && lead <= 0xef) {
    [count, codePoint] = [2, lead & 0x0f];
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    [count, codePoint] = [3, lead & 0x07];
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return undefined;
  for (let n = 1; n <= count; n++) {
    const next = byteAt(text, at + 3 * n);
    if (next < (n === 1 ? low : 0x80) || next > (n === 1 ? high : 0xbf)) return undefined;
    codePoint = (codePoint << 6) | (next & 0x3f);
  }
  return { read: String.fromCodePoint(codePoint), length: 3 * (count + 1) };
}

// ---- Address forms ----

// What the address forms need to be present: an at-sign with white space after it, a bracketed "at" or "dot", or a
// dot drawn like a full stop. Linear: no quantifier follows another that can match the same characters.
const AT_SIGNS = "@\uff20\ufe6b";
const LOOK_ALIKE_DOTS = "\u2024\u00b7\uff65\u2e31\u30fb\u2219\u22c5\u0387\u2027";
const ADDRESS_FORM = new RegExp(
  `[${AT_SIGNS}]\\s|[([{<\uff08\uff3b] {0,2}(?:at|dot) {0,2}[)\\]}>\uff09\uff3d]|[${LOOK_ALIKE_DOTS}]`,
  "i",
);
const AT_SIGN = 0x40;
const DOT = 0x2e;
// Either of the above: most text has neither, and is its own view after one test.
const READ_DIFFERENTLY = new RegExp(`${ENCODED.source}|${ADDRESS_FORM.source}`, "i");
const AT_SIGN_CODES = new Set([...AT_SIGNS].map((char) => char.charCodeAt(0)));
const LOOK_ALIKE_DOT_CODES = new Set([...LOOK_ALIKE_DOTS].map((char) => char.charCodeAt(0)));
const CLOSING_BRACKETS = new Map([
  ["(", ")"],
  ["[", "]"],
  ["{", "}"],
  ["<", ">"],
  ["\uff08", "\uff09"],
  ["\uff3b", "\uff3d"],
]);
// White space that may stand between an address's parts ("maya @ acme.example", a line break before the at-sign).
const MAX_GAP = 4;
const SPACE_AT = /\s/y;
// What an address's parts are made of, next to the at-sign or dot that joins them.
const ADDRESS_CHAR_AT = /[\p{L}\p{M}\p{N}._%+-]/uy;
const ADDRESS_CHAR = /^[\p{L}\p{M}\p{N}._%+-]$/u;

function matchesAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return index >= 0 && index < text.length && pattern.test(text);
}

/** The index after the white space at `from`, if there are at most MAX_GAP characters of it; else `from`. */
function afterGap(text: string, from: number): number {
  let i = from;
  while (i - from < MAX_GAP && matchesAt(SPACE_AT, text, i)) i++;
  return matchesAt(SPACE_AT, text, i) ? from : i;
}

/** The bracketed word ("(at)", "[ dot ]") at `open` and its end, or undefined. */
function bracketedWord(text: string, open: number): { word: "at" | "dot"; end: number } | undefined {
  const closing = CLOSING_BRACKETS.get(text[open]!);
  if (!closing) return undefined;
  let i = open + 1;
  while (i - open <= 2 && text[i] === " ") i++;
  const word = text
    .slice(i, i + 3)
    .toLowerCase()
    .startsWith("dot")
    ? "dot"
    : "at";
  if (text.slice(i, i + word.length).toLowerCase() !== word) return undefined;
  i += word.length;
  for (let spaces = 0; spaces < 2 && text[i] === " "; spaces++) i++;
  return text[i] === closing ? { word, end: i + 1 } : undefined;
}

/**
 * The text with the spellings of an address's at-sign and dots made plain, where they stand between characters an
 * address is made of: "(at)" and "[at]" become "@", and so does an at-sign with white space after it (and before
 * it: "maya @ acme.example", "maya@ acme.example", "maya@⏎acme.example"); "(dot)" and "[dot]" become "."; and dots
 * drawn like a full stop (U+2024, U+00B7, U+FF65, U+2E31…) become "." wherever they are. An at-sign with white
 * space before it only ("maya @acme.example") is left as it is: so is a mention (thanks @maya.chen), and the
 * scanner masks what follows such an at-sign when it reads as a domain.
 */
function plainAddressForms(text: string): ContactView {
  const view = new ViewBuilder(text.length);
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    const atSign = AT_SIGN_CODES.has(code);
    const bracketed = atSign ? undefined : bracketedWord(text, i);
    if (atSign || bracketed) {
      const end = atSign ? i + 1 : bracketed!.end;
      const after = afterGap(text, end);
      const gapBefore = view.trailingSpace(MAX_GAP);
      const joins =
        matchesAt(ADDRESS_CHAR_AT, text, after) &&
        ADDRESS_CHAR.test(String.fromCharCode(view.unitBeforeEnd(gapBefore))) &&
        (bracketed !== undefined || after > end);
      if (joins) {
        view.drop(gapBefore);
        view.push(bracketed?.word === "dot" ? DOT : AT_SIGN, i, after, false);
        i = after;
        continue;
      }
    }
    if (LOOK_ALIKE_DOT_CODES.has(code)) view.push(DOT, i, i + 1, false);
    else view.push(code, i, i + 1);
    i++;
  }
  return view.build(text);
}
