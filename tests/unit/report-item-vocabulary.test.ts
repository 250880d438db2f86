import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_ITEM_SECTIONS, REPORT_ITEM_VOCABULARY, type ItemFields } from "@/lib/data/report-items";

// The item vocabulary is declared once, in lib/data/report-items.ts; docs/import-format.md's table shows it. Each row
// of the table must list exactly the names the code reads, in its order, so the page cannot drift from the code.

const DOC = readFileSync(path.join(import.meta.dirname, "../../docs/import-format.md"), "utf8");

/** The table's row for a section: its cells, each as the names it lists in backticks. */
function rowOf(section: string): string[][] {
  const line = DOC.split("\n").find((l) => l.replace(/\s+/g, " ").startsWith(`| \`${section}\` |`));
  if (!line) throw new Error(`docs/import-format.md has no row for ${section}`);
  return line
    .split("|")
    .slice(2, -1)
    .map((cell) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
}

describe("the item vocabulary", () => {
  it.each(Object.entries(REPORT_ITEM_SECTIONS))(
    "%s: docs/import-format.md lists what the code reads",
    (kind, section) => {
      const fields = REPORT_ITEM_VOCABULARY[kind as keyof typeof REPORT_ITEM_SECTIONS];
      const [text, owner, memberId, days, other] = rowOf(section);
      const others: (keyof ItemFields)[] = ["reason", "value", "unit", "target", "status"];
      expect({ text, owner, memberId, days, other }).toEqual({
        text: [...fields.text],
        owner: [...fields.owner],
        memberId: [...fields.member_id],
        days: [...fields.days],
        other: others.flatMap((name) => [...fields[name]]),
      });
    },
  );
});
