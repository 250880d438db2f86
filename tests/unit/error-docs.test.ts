import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_STATUS } from "@/lib/errors";

// docs/limits-and-errors.md is written by hand, unlike the /docs page and llms-full.txt, which print the error
// table of lib/errors.ts. Its table of codes is held to that table here: a code added to ERROR_STATUS (which needs
// its ERROR_DESCRIPTIONS sentence to compile) fails until the page has its row.

const DOC = readFileSync(path.join(import.meta.dirname, "../../docs/limits-and-errors.md"), "utf8");

/** The rows of the page's table of codes: status, code and the "when" cell, by code. */
function documentedCodes(): Map<string, { status: string; when: string }> {
  const section = DOC.slice(DOC.indexOf("\n## Errors\n"));
  const rows = section
    .split("\n")
    .filter((line) => /^\| \d{3} /.test(line))
    .map((line) => line.split("|").map((cell) => cell.trim()));
  return new Map(rows.map(([, status, code, when]) => [code!, { status: status!, when: when! }]));
}

describe("docs/limits-and-errors.md's table of error codes", () => {
  const documented = documentedCodes();

  it("lists exactly the codes of lib/errors.ts", () => {
    expect([...documented.keys()].sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(ERROR_CODES)("gives %s its status, and its description first", (code) => {
    const row = documented.get(code);
    expect(row?.status).toBe(String(ERROR_STATUS[code]));
    // The page may say more after the description (headers, limits), never something else instead of it.
    expect(row?.when.startsWith(ERROR_DESCRIPTIONS[code]), row?.when).toBe(true);
  });
});
