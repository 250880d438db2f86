import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportPage, reportRead } from "@/lib/data/reports";
import { getSql } from "@/lib/db";
import { createHistoryOrg, historyReport, type HistoryOrg } from "../helpers/history-org";

// The report reads send each instant as UTC wall-clock time and the server writes it as toISOString() does
// (lib/db/sql.ts utcTimestamp, isoFromUtcJson): a list and the report's own read serve one instant as the same text,
// whatever fraction of a second the column holds (timestamptz(3): none to three digits, which PostgreSQL writes
// into JSON without trailing zeros).

const STORED = [
  ["2026-03-01T09:00:00Z", "2026-03-01T09:00:00.000Z"],
  ["2026-03-01T09:00:01.5Z", "2026-03-01T09:00:01.500Z"],
  ["2026-03-01T09:00:02.07Z", "2026-03-01T09:00:02.070Z"],
  ["2026-03-01T09:00:03.123Z", "2026-03-01T09:00:03.123Z"],
  ["2026-03-01T09:00:04.1239Z", "2026-03-01T09:00:04.124Z"],
  ["1999-12-31T23:59:59.999+05:00", "1999-12-31T18:59:59.999Z"],
] as const;

let org: HistoryOrg;

beforeAll(async () => {
  org = await createHistoryOrg();
  const reports = STORED.map((_, i) => historyReport({ generated_at: `2026-02-01T00:00:0${i}.000Z` }));
  await org.add(reports);
  const sql = await getSql();
  for (const [i, [stored]] of STORED.entries()) {
    await sql.rows(
      {
        name: "test-report-instant",
        text: "UPDATE reports SET generated_at = $2::timestamptz WHERE id = $1::uuid",
        planEachRun: true,
      },
      [reports[i]!.id, stored],
    );
  }
});

afterAll(() => org?.remove());

describe("a report's instant", () => {
  it("is served in a list as toISOString() writes it, milliseconds cut", async () => {
    const { reports } = await reportPage({ limit: 50 }).run(org.organization.id);
    expect(reports.map((r) => r.generated_at).sort()).toEqual(STORED.map(([, served]) => served).sort());
  });

  it("is the same text in a list and in the report's own read", async () => {
    const { reports } = await reportPage({ limit: 50 }).run(org.organization.id);
    for (const summary of reports) {
      const report = await reportRead.with(summary.id).run(org.organization.id);
      expect(summary.generated_at).toBe(report.generated_at);
    }
  });
});
