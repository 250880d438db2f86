import { describe, expect, it } from "vitest";
import { readCsvRows } from "@/lib/data/csv-reader";
import { UpdateImportError } from "@/lib/data/update-file";
import { readUpdateCsv } from "@/lib/data/update-csv";
import { MESSAGE_MAX } from "@/lib/text/input-excerpt";

// The CSV reader the roster and the updates imports share (lib/data/csv-reader.ts).

/** A file csv-parse refuses, its message quoting a long cell that ends in a right-to-left override. */
const UNREADABLE = `name,email\n${"x".repeat(1_000)}"\u202e,a@b.example\n`;
const PREFIX = "not readable as CSV: ";

describe("readCsvRows", () => {
  it("reads the header and the rows with their numbers, a spreadsheet's BOM, blank lines and spaces aside", () => {
    expect(readCsvRows("\uFEFFname , email\n\n Ana ,ana@team.example,extra\n")).toEqual({
      head: { record: ["name", "email"], info: expect.objectContaining({ records: 1 }) },
      body: [{ record: ["Ana", "ana@team.example", "extra"], info: expect.objectContaining({ records: 2 }) }],
    });
  });

  it("names an empty file", () => {
    expect(readCsvRows("\n\n")).toEqual({ problem: "the file is empty" });
  });

  it("says why a file is unreadable in the parser's words, bounded and with invisible characters escaped", () => {
    const read = readCsvRows(UNREADABLE);
    if (!("problem" in read)) throw new Error("expected a problem");
    expect(read.problem.startsWith(`${PREFIX}Invalid Opening Quote`)).toBe(true);
    expect(read.problem.length).toBeLessThanOrEqual(PREFIX.length + MESSAGE_MAX);
    expect(read.problem).not.toContain("\u202e");
  });

  it("is the updates import's file-wide problem, word for word", () => {
    const read = readCsvRows(UNREADABLE) as { problem: string };
    const thrown = (() => {
      try {
        readUpdateCsv(UNREADABLE);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(UpdateImportError);
    expect((thrown as UpdateImportError).problems).toEqual([{ row: "file", message: read.problem }]);
  });
});
