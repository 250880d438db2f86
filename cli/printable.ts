// Values printed by the CLI come from the database, where names stored before key names were checked (and
// organization or member names, which never were) may hold anything. A terminal obeys escape sequences and
// bidi overrides in what it prints, so every non-printable character is shown escaped instead.

// Controls, format characters (bidi marks, zero-width spaces…), line and paragraph separators, lone
// surrogates. ZWJ (U+200D) is left alone: it is what joins emoji sequences such as 👩‍💻.
const NON_PRINTABLE = /(?!\u200D)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

function escapeCodePoint(char: string): string {
  const code = char.codePointAt(0)!;
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  if (code <= 0xffff) return `\\u${hex(code, 4)}`;
  return `\\u{${hex(code, 5)}}`;
}

/** `a\x1b]0;x\x07b` for a name holding ESC … BEL: readable, and inert in a terminal. */
export function escapeNonPrintable(text: string): string {
  return text.replace(NON_PRINTABLE, escapeCodePoint);
}

/** The same value with every string in it (through arrays and plain objects) escaped, for the human formats. */
export function printableStrings<T>(value: T): T {
  if (typeof value === "string") return escapeNonPrintable(value) as T;
  if (Array.isArray(value)) return value.map(printableStrings) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, printableStrings(v)])) as T;
  }
  return value;
}

/**
 * JSON for `--json`: the exact values, with nothing a terminal would act on. JSON.stringify escapes C0
 * controls and lone surrogates but writes C1 controls, bidi overrides and line separators raw; as \uXXXX
 * escapes (UTF-16 units, so astral ones become pairs) they are still the same JSON value.
 */
export function printableJson(value: unknown, space?: number): string {
  // A raw newline in JSON text is indentation: inside strings JSON.stringify has already escaped it.
  return JSON.stringify(value, null, space).replace(NON_PRINTABLE, (char) =>
    char === "\n" ? char : Array.from({ length: char.length }, (_, i) => `\\u${hex(char.charCodeAt(i), 4)}`).join(""),
  );
}
