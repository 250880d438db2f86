// Report text is written by people and by other tools, and is handed to models. Characters a reader cannot see can
// carry what a model still reads: instructions spelled in tag characters (U+E0000 block), bytes smuggled in runs of
// variation selectors, zero-width characters splitting a word past a filter, bidirectional controls that make text
// display in another order than it is stored (a right-to-left override shows "elpmaxe.emca@ayam" as an address).
// Sundown removes them from report content when it is imported and again from everything it serves, as GitHub's
// MCP server does with what it returns.
//
// Removed: Unicode's default-ignorable code points (invisible by definition: zero-width spaces, joiners, word
// joiners, soft hyphens, bidi marks, embeddings, overrides and isolates, Hangul fillers, tag characters, variation
// selectors), the interlinear annotation characters (U+FFF9–U+FFFB, which hide a span of text), and control
// characters other than tab, line feed and carriage return. Kept, because writing systems need them and they hide
// nothing there: a zero-width joiner or non-joiner between two non-ASCII characters (emoji sequences such as 👩‍💻,
// Persian and Indic orthography), and one variation selector right after a non-ASCII character (❤️, CJK variants).

const REMOVABLE = /[\p{Default_Ignorable_Code_Point}\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufff9-\ufffb]/u;
const IGNORABLE_AT = /\p{Default_Ignorable_Code_Point}/uy;

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const RLO = 0x202e;
// The controls that open an embedding or override, and the one that closes the latest (U+202C).
const EMBEDDING_OPENERS = new Set([0x202a, 0x202b, 0x202d, 0x202e]);
const PDF = 0x202c;

/** The text with every invisible, bidirectional-control and tag character removed (see above). */
export function withoutInvisibles(text: string): string {
  return REMOVABLE.test(text) ? readableText(text).text : text;
}

/** A stretch of readable text, as UTF-16 offsets (end exclusive). */
export interface TextRange {
  start: number;
  end: number;
}

export interface ReadableText {
  /** The text without invisible characters. */
  text: string;
  /**
   * The stretches of `text` that a right-to-left override (U+202E) displayed in reverse: a reader saw them
   * backwards, so whatever is scanned for in the text must be looked for in them reversed too.
   */
  reversed: readonly TextRange[];
}

const NONE_REVERSED: readonly TextRange[] = Object.freeze([]);

/** The text as withoutInvisibles makes it, and where an override displayed part of it in reverse. */
export function readableText(text: string): ReadableText {
  if (!REMOVABLE.test(text)) return { text, reversed: NONE_REVERSED };
  // The kept text is copied a run at a time, between the characters left out; never read back while it grows (a
  // string built by appending is flattened whenever one of its characters is read).
  const parts: string[] = [];
  let runStart = 0;
  let keptLength = 0;
  /** The last character kept, or -1. */
  let before = -1;
  const reversed: TextRange[] = [];
  // Open embeddings and overrides; where the outermost open override began in the kept text.
  let depth = 0;
  let overrideDepth = 0;
  let overrideStart = -1;
  const closeOverride = () => {
    if (overrideStart !== -1 && keptLength > overrideStart) reversed.push({ start: overrideStart, end: keptLength });
    overrideStart = -1;
    overrideDepth = 0;
  };
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    let kept = false;
    if (EMBEDDING_OPENERS.has(code)) {
      depth++;
      if (code === RLO && overrideStart === -1) {
        overrideStart = keptLength;
        overrideDepth = depth;
      }
    } else if (code === PDF) {
      if (depth === overrideDepth) closeOverride();
      depth = Math.max(0, depth - 1);
    } else if (code === 0x0a || code === 0x0d || code === 0x2029) {
      // A paragraph ends every embedding and override.
      closeOverride();
      depth = 0;
      kept = true;
    } else kept = keeps(text, i, code, before);
    if (kept) {
      keptLength += width;
      before = code;
    } else {
      parts.push(text.slice(runStart, i));
      runStart = i + width;
    }
    i += width;
  }
  parts.push(text.slice(runStart));
  closeOverride();
  return { text: parts.join(""), reversed };
}

/** Whether the character `code` at `index` of `text` stays, after `before` (the last character kept, or -1). */
function keeps(text: string, index: number, code: number, before: number): boolean {
  if (code < 0x20) return code === 0x09;
  if (code < 0xa0) return code < 0x7f;
  if (code >= 0xfff9 && code <= 0xfffb) return false;
  if (code < 0xad) return true;
  IGNORABLE_AT.lastIndex = index;
  if (!IGNORABLE_AT.test(text)) return true;
  if (before < 0x80) return false;
  if (code === ZWJ || code === ZWNJ) {
    // Between two visible non-ASCII characters; the first may carry its variation selector (❤️‍🔥).
    const after = text.codePointAt(index + 1);
    const joinsAfter = !isIgnorable(before) || isVariationSelector(before);
    return joinsAfter && after !== undefined && after >= 0xa0 && !isIgnorable(after);
  }
  return isVariationSelector(code) && !isIgnorable(before);
}

const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

function isIgnorable(codePoint: number): boolean {
  return IGNORABLE.test(String.fromCodePoint(codePoint));
}

function isVariationSelector(code: number): boolean {
  return (
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xe0100 && code <= 0xe01ef) ||
    (code >= 0x180b && code <= 0x180d) ||
    code === 0x180f
  );
}

// Shown as escapes where a value is quoted back (lib/data/input-excerpt.ts): what is removed above, and line breaks.
const SHOWN_ESCAPED = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Zl}\p{Zp}\ufff9-\ufffb]/gu;

/** The text with every invisible, control and line-break character written as its escape: `a\u202eb`, `\u{e0041}`. */
export function escapeInvisibles(text: string): string {
  return text.replace(SHOWN_ESCAPED, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
