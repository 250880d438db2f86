import type { UpdateContent } from "@/lib/data/updates";
import { itemKey } from "@/lib/text/item-key";

// One person's blockers and slipping items across days. An item is the same item (its text folded by itemKey) for as
// long as its owner keeps listing it: a day the owner wrote nothing, or was away, does not end it; an update that
// does not list it does. Its first day is where that unbroken run of the owner's updates begins.

/** One update as the history reads it, with the keys of what it lists. */
export interface HistoryEntry {
  day: string;
  content: UpdateContent;
  blockerKeys: Set<string>;
  slippingKeys: Set<string>;
}

/** The key of an item's text; text with nothing left to fold is its own key. */
export function textKey(text: string): string {
  return itemKey(text) ?? text.trim();
}

export function historyEntry(day: string, content: UpdateContent): HistoryEntry {
  return {
    day,
    content,
    blockerKeys: new Set(content.blockers.map((b) => textKey(b.description))),
    slippingKeys: new Set(content.slipping.map((s) => textKey(s.item))),
  };
}

/**
 * The first day of the run of updates listing `key`. `history` is one owner's updates, newest first, and its first
 * entry lists the item.
 */
export function firstListedDay(history: HistoryEntry[], key: string, section: "blockerKeys" | "slippingKeys"): string {
  let first = history[0]!.day;
  for (let i = 1; i < history.length; i++) {
    if (!history[i]![section].has(key)) break;
    first = history[i]!.day;
  }
  return first;
}
