// What a contact detail in text becomes. Each finder (lib/data/contact-text.ts) reports stretches of the
// original text and the mask that replaces them; the text is then rebuilt once. Finders may overlap (a phone
// number inside a WhatsApp link): overlapping stretches become one, under the mask of the one that starts first.

export const EMAIL_MASK = "[email hidden]";
export const MENTION_MASK = "[mention hidden]";
export const HANDLE_MASK = "[handle hidden]";
export const PHONE_MASK = "[phone hidden]";
export const CONTACT_LINK_MASK = "[contact link hidden]";

export interface ContactSpan {
  /** UTF-16 offsets into the text, end exclusive. */
  start: number;
  end: number;
  mask: string;
}

/** The text with every span replaced by its mask. */
export function applyMasks(text: string, spans: ContactSpan[]): string {
  if (spans.length === 0) return text;
  // Each finder reports its spans in order, so this sorts a few sorted runs: linear in practice.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let served = "";
  let copiedUpTo = 0;
  for (const { start, end, mask } of spans) {
    if (start < copiedUpTo) {
      copiedUpTo = Math.max(copiedUpTo, end);
      continue;
    }
    served += text.slice(copiedUpTo, start) + mask;
    copiedUpTo = end;
  }
  return served + text.slice(copiedUpTo);
}
