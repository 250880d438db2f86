import confusablesData from "unhomoglyph/data.json";

// Two spellings of a contact detail that read alike to a person must compare alike. Compatibility forms are
// composed away (NFKC: full-width ｍａｙａ＠ is maya@), letters of other scripts drawn like Latin ones become
// their Latin prototype from Unicode's confusables data (UTS #39, as the unhomoglyph package ships it:
// Cyrillic р is p, е is e), and case is ignored. ASCII is never mapped: the data also pairs ASCII with ASCII
// (m with rn, 1 with l), and that would make ordinary words collide.

const PROTOTYPES = new Map<string, string>(Object.entries(confusablesData as Record<string, string>));
// Written as the dot of an address in CJK text; the confusables data maps them elsewhere.
PROTOTYPES.set("\u3002", ".").set("\uff61", ".");

const INVISIBLE = /^\p{Default_Ignorable_Code_Point}$/u;
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** The text with compatibility forms composed and look-alike letters replaced by their prototypes, case kept. */
export function foldLookAlikes(text: string): string {
  if (ASCII_ONLY.test(text)) return text;
  let folded = "";
  for (const char of text.normalize("NFKC"))
    folded += char.charCodeAt(0) < 0x80 ? char : (PROTOTYPES.get(char) ?? char);
  return folded;
}

const ASCII_FOLDED = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code).toLowerCase());
// Each non-ASCII character is folded once; a text of a million different characters still caps what is kept.
const foldedCache = new Map<number, string>();
const MAX_CACHED = 1 << 16;

/**
 * One character (a code point) as matching compares it: look-alikes folded, in lower case, and nothing at all
 * for invisible characters (zero-width spaces and joiners, soft hyphens), which can be slipped into any value.
 */
export function foldCodePoint(codePoint: number): string {
  if (codePoint < 0x80) return ASCII_FOLDED[codePoint]!;
  let folded = foldedCache.get(codePoint);
  if (folded === undefined) {
    const char = String.fromCodePoint(codePoint);
    folded = INVISIBLE.test(char) ? "" : foldLookAlikes(char).toLowerCase();
    if (foldedCache.size < MAX_CACHED) foldedCache.set(codePoint, folded);
  }
  return folded;
}

/** A whole value folded as foldCodePoint folds each of its characters. */
export function foldForMatching(text: string): string {
  let folded = "";
  for (let i = 0; i < text.length;) {
    const codePoint = text.codePointAt(i)!;
    folded += foldCodePoint(codePoint);
    i += codePoint > 0xffff ? 2 : 1;
  }
  return folded;
}
