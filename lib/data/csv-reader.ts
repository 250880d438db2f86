import { CsvError, parse as parseCsv } from "csv-parse/sync";
import { boundedMessage } from "@/lib/text/input-excerpt";

// The CSV files people import (a roster, a stretch of updates) are read alike: a byte-order mark, blank lines and
// the spaces around cells are a spreadsheet's, not the file's; a row with more cells than the header is kept, for
// its reader to name. Why a file cannot be read is said in the parser's words, which quote the file: bounded.

/** One row of the file, and its number as the file counts rows (the header is row 1). */
export interface CsvRow {
  record: string[];
  info: { records: number };
}

/** The header and the rows below it; or what makes the file unreadable, as the import's file-wide problem. */
export function readCsvRows(text: string): { head: CsvRow; body: CsvRow[] } | { problem: string } {
  let rows: CsvRow[];
  try {
    // With `info`, each record comes with where it was read; the typings know records only as arrays.
    rows = parseCsv(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as CsvRow[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { problem: `not readable as CSV: ${boundedMessage(error.message)}` };
  }
  const [head, ...body] = rows;
  return head ? { head, body } : { problem: "the file is empty" };
}
