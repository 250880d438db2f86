import { foldCodePoint, foldForMatching } from "./contact-fold";
import { EMAIL_MASK, HANDLE_MASK, type ContactSpan } from "./contact-masks";

// Finds an organization's own contact details in text (lib/data/known-contacts.ts says which), compared as
// lib/data/contact-fold.ts folds text: case, NFKC, look-alike letters, invisible characters.
//
// Text is read as words of the characters addresses and handles are made of (letters, digits, . _ % + - @).
// A word, without dots and hyphens at its ends, is masked when it is a known address (also when written as two
// words, the second starting with the at-sign: ana @intranet), or `@` and a known handle
// (an address's local part counts as one), or a known handle alone when that handle mixes letters with other
// characters (maya.chen, m_chen2, U0MAYA03): a handle of letters alone (mchen, maya) is as likely a name or a
// word, and one of digits alone a number, so those count only after `@`. One pass, a table look-up per
// character; a word is looked up only when it holds something besides letters and has a known value's length.

export interface KnownContactValues {
  emails: string[];
  handles: string[];
}

export interface KnownContacts {
  /** Adds a span for every known value in the text, in order. */
  find(text: string, spans: ContactSpan[]): void;
}

export const NO_KNOWN_CONTACTS: KnownContacts = { find: () => {} };

/** A matcher for these values; building it folds each value, so build one per set of values and keep it. */
export function knownContactMatcher(values: KnownContactValues): KnownContacts {
  return new KnownContactMatcher(values);
}

// Room for dots and hyphens around a word beyond the longest known value.
const TRIM_ALLOWANCE = 16;

class KnownContactMatcher implements KnownContacts {
  private readonly masks = new Map<string, string>();
  private readonly lengths: Set<number>;
  private readonly shortest: number;
  private readonly longest: number;
  /** Whether a handle counts without an at-sign (see addHandle). */
  private bareHandles = false;

  constructor({ emails, handles }: KnownContactValues) {
    for (const email of emails) {
      const folded = trimEnds(foldForMatching(email));
      this.add(folded, EMAIL_MASK);
      // People are often named in chat by their address's local part (maya.chen of maya.chen@acme.example).
      if (folded.lastIndexOf("@") > 0) this.addHandle(folded.slice(0, folded.lastIndexOf("@")));
    }
    for (const handle of handles) this.addHandle(foldForMatching(handle).replace(/^@+/, ""));
    this.lengths = new Set([...this.masks.keys()].map((value) => value.length));
    this.shortest = Math.min(...this.lengths);
    this.longest = Math.max(...this.lengths);
  }

  private addHandle(folded: string) {
    const handle = trimEnds(folded);
    if (!handle) return;
    this.add(`@${handle}`, HANDLE_MASK);
    if (/\p{L}/u.test(handle) && /[^\p{L}\p{M}]/u.test(handle) && this.add(handle, HANDLE_MASK)) {
      this.bareHandles = true;
    }
  }

  /** Adds a folded value to look for; false when it is no word (it holds a space), which this cannot find. */
  private add(folded: string, mask: string): boolean {
    if (!folded || [...folded].some((char) => wordKind(char) === SEPARATOR)) return false;
    this.masks.set(folded, mask);
    return true;
  }

  find(text: string, spans: ContactSpan[]): void {
    // Without a handle that counts on its own, only a word with an at-sign can be a known value.
    if (!this.bareHandles && !AT_SIGNS.some((atSign) => text.includes(atSign))) return;
    let start = -1;
    let end = -1;
    let foldedLength = 0;
    let notLettersOnly = false;
    let asciiOnly = true;
    // The word before, and the separators since: a word that starts with an at-sign after at most MAX_GAP spaces is
    // also read joined to it (ana @intranet is ana@intranet).
    let previous: { start: number; end: number; foldedLength: number } | undefined;
    let gap = 0;
    let joinable = false;
    for (let i = 0; i <= text.length;) {
      const code = i < text.length ? text.charCodeAt(i) : SPACE;
      let kind: number;
      let length = 1;
      let width = 1;
      if (code < 0x80) kind = ASCII_KINDS[code]!;
      else {
        const codePoint = text.codePointAt(i)!;
        width = codePoint > 0xffff ? 2 : 1;
        const part = wordPart(codePoint);
        kind =
          part === undefined ? SEPARATOR : part.folded === "" ? INVISIBLE : part.letters ? LETTER : OTHER_WORD_CHAR;
        length = part?.folded.length ?? 0;
      }
      if (kind === SEPARATOR) {
        if (start !== -1) {
          const mayBeKnown = foldedLength >= this.shortest && foldedLength <= this.longest + TRIM_ALLOWANCE;
          if (notLettersOnly && mayBeKnown) this.matchWord(text, start, end, asciiOnly, spans);
          if (joinable && foldedLength + previous!.foldedLength <= this.longest + TRIM_ALLOWANCE) {
            this.matchJoined(text, previous!, { start, end }, spans);
          }
          previous = { start, end, foldedLength };
          gap = 0;
        }
        gap = SPACE_CODES.has(code) ? gap + 1 : MAX_GAP + 1;
        start = -1;
      } else if (kind !== INVISIBLE) {
        if (start === -1) {
          start = i;
          foldedLength = 0;
          notLettersOnly = false;
          asciiOnly = true;
          joinable = previous !== undefined && gap <= MAX_GAP && AT_SIGNS.includes(text[i]!);
        }
        asciiOnly &&= code < 0x80;
        end = i + width;
        foldedLength += length;
        notLettersOnly ||= kind === OTHER_WORD_CHAR;
      } else {
        // Inside a word, it makes the word longer than it folds.
        asciiOnly = false;
      }
      i += width;
    }
  }

  /** Masks the two words and the spaces between them when, joined, they are a known value. */
  private matchJoined(text: string, first: Stretch, second: Stretch, spans: ContactSpan[]) {
    let start = first.start;
    let end = second.end;
    while (start < first.end && isDotOrHyphenAt(text, start)) start += charLengthAt(text, start);
    while (end > second.start && isDotOrHyphenAt(text, charStartBefore(text, end))) end = charStartBefore(text, end);
    const mask = this.masks.get(foldedBetween(text, start, first.end) + foldedBetween(text, second.start, end));
    if (mask) spans.push({ start, end, mask });
  }

  /** Masks the word at [start, end) when it is a known value once its dots and hyphens at both ends are gone. */
  private matchWord(text: string, start: number, end: number, asciiOnly: boolean, spans: ContactSpan[]) {
    while (start < end && isDotOrHyphenAt(text, start)) start += charLengthAt(text, start);
    while (end > start && isDotOrHyphenAt(text, charStartBefore(text, end))) end = charStartBefore(text, end);
    // An ASCII word folds to as many characters: most words are ruled out by length alone.
    if (asciiOnly && !this.lengths.has(end - start)) return;
    const mask = this.masks.get(foldedBetween(text, start, end));
    if (mask) spans.push({ start, end, mask });
  }
}

interface Stretch {
  start: number;
  end: number;
}

/** The word characters of text[start, end) folded as matching compares them. */
function foldedBetween(text: string, start: number, end: number): string {
  let word = "";
  for (let i = start; i < end; i += charLengthAt(text, i)) word += wordPart(text.codePointAt(i)!)!.folded;
  return word;
}

function charLengthAt(text: string, index: number): number {
  return text.codePointAt(index)! > 0xffff ? 2 : 1;
}

function charStartBefore(text: string, end: number): number {
  return end >= 2 && text.codePointAt(end - 2)! > 0xffff ? end - 2 : end - 1;
}

/** Whether the character at `index` folds to dots and hyphens only (not to nothing: invisible ones stay). */
function isDotOrHyphenAt(text: string, index: number): boolean {
  const folded = wordPart(text.codePointAt(index)!)?.folded;
  return folded !== undefined && folded !== "" && /^[.-]+$/.test(folded);
}

const SPACE = 0x20;
// Spaces, tabs and line breaks between a word and an at-sign that starts the next (see find).
const SPACE_CODES = new Set([0x20, 0x09, 0x0a, 0x0d, 0xa0, 0x3000]);
const MAX_GAP = 4;
// What NFKC folds to an at-sign; the confusables data maps nothing to one.
const AT_SIGNS = ["@", "\uff20", "\ufe6b"];
const SEPARATOR = 0;
const LETTER = 1;
const OTHER_WORD_CHAR = 2;
const INVISIBLE = 3;

function wordKind(char: string): number {
  if (/^[\p{L}\p{M}]$/u.test(char)) return LETTER;
  return /^[\p{N}._%+\-@]$/u.test(char) ? OTHER_WORD_CHAR : SEPARATOR;
}

/** A character's part in a word: its folded form ("" when invisible) and whether that is letters only. */
interface WordPart {
  folded: string;
  letters: boolean;
}

const ASCII_PARTS = Array.from({ length: 0x80 }, (_, code) => partOf(code));
// ASCII characters fold to one character each; their kinds, for the scan's fast path.
const ASCII_KINDS = Uint8Array.from(ASCII_PARTS, (part) =>
  part === undefined ? SEPARATOR : part.letters ? LETTER : OTHER_WORD_CHAR,
);
const partCache = new Map<number, WordPart | undefined>();
const MAX_CACHED_PARTS = 1 << 16;

/** The character's part in a word, or undefined when it separates words. */
function wordPart(codePoint: number): WordPart | undefined {
  if (codePoint < 0x80) return ASCII_PARTS[codePoint];
  if (partCache.has(codePoint)) return partCache.get(codePoint);
  const part = partOf(codePoint);
  if (partCache.size < MAX_CACHED_PARTS) partCache.set(codePoint, part);
  return part;
}

function partOf(codePoint: number): WordPart | undefined {
  const folded = foldCodePoint(codePoint);
  const kinds = [...folded].map(wordKind);
  if (kinds.includes(SEPARATOR)) return undefined;
  return { folded, letters: kinds.every((kind) => kind === LETTER) };
}

function trimEnds(folded: string): string {
  const isDotOrHyphen = (index: number) => folded[index] === "." || folded[index] === "-";
  let start = 0;
  let end = folded.length;
  while (start < end && isDotOrHyphen(start)) start++;
  while (end > start && isDotOrHyphen(end - 1)) end--;
  return folded.slice(start, end);
}
