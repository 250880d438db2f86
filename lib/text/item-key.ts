// The key two spellings of one thing share (a blocker, a KPI's name): accents dropped, lower case, every run of
// anything but letters and digits one space, trimmed. The same folding as the report items' SQL
// (lib/data/report-items.ts, keySql), so a key made here matches one made there.

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NOT_ALPHANUMERIC = /[^\p{L}\p{N}]+/gu;

/** The folded key of a text, or null when nothing of it is left (only punctuation or spaces). */
export function itemKey(text: string): string | null {
  const key = text.normalize("NFD").replace(COMBINING_MARKS, "").toLowerCase().replace(NOT_ALPHANUMERIC, " ").trim();
  return key === "" ? null : key;
}
