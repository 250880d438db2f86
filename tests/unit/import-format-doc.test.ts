import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseImportText, validateImportReports } from "@/lib/data/import-reports";

// docs/import-format.md shows files and what `sundown reports import` prints for them. Each example whose
// problems are found in the file itself (stage 1, no database) is run through the same validator here, so the
// page cannot drift from what the command says. The membership example needs an organization: it is the
// integration tests' (tests/integration/import-reports.test.ts).

const DOC = readFileSync(path.join(import.meta.dirname, "../../docs/import-format.md"), "utf8");

/** Each ```json block followed by a block of the command's output, with the output's problem lines. */
function examples(): { file: string; printed: string }[] {
  const blocks = [...DOC.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2]! }));
  const pairs: { file: string; printed: string }[] = [];
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    if (block.lang !== "json" || !next?.body.startsWith("$ npx sundown reports import")) return;
    pairs.push({ file: block.body, printed: next.body.split("\n").slice(1).join("\n").trim() });
  });
  return pairs;
}

function whatTheCommandPrints(file: string): string {
  try {
    validateImportReports(parseImportText(file));
    return "(accepted)";
  } catch (error) {
    return `sundown: ${(error as Error).message}`;
  }
}

describe("docs/import-format.md's refused files", () => {
  const found = examples();

  it("has its examples (the page's code blocks were found)", () => {
    expect(found.length).toBeGreaterThanOrEqual(2);
  });

  it.each(found.map((e, i) => [i, e] as const))("example %i prints what the page says", (_, { file, printed }) => {
    expect(whatTheCommandPrints(file)).toBe(printed);
  });
});
