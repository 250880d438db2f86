import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ReportFilters } from "@/lib/data/reports";
import { reportPaging } from "@/lib/operations/list-reports";
import { filterNamesOf, OPERATIONS, type ReportFilterInput } from "@/lib/operations/table";

// list_reports' module marks its filters (asFilter); the cursor's digest (lib/operations/paged-list.ts), the report read's filters, the
// MCP prompt's page walk and the /docs page are built from that mark. What cannot import it is checked here.

const FILTERS = {
  since: { instant: "2026-11-16T00:00:00.000Z" },
  until: { instant: "2026-11-22T23:59:59.999Z" },
  scope: "member",
  scope_target_id: "5d0e0002-0002-4002-8002-00000000ac3e",
  q: "staging database",
} as const;

// The filters are what the report read takes: lib/data sits below the operations and cannot import it, so the compiler
// holds the two equal (tsc compiles the tests; .ci/run runs it). Not a test: nothing happens at run
// time, and an `it` that asserts nothing there is refused (expect.requireAssertions).
expectTypeOf<keyof ReportFilters>().toEqualTypeOf<keyof ReportFilterInput>();
expectTypeOf<ReportFilterInput>().toExtend<ReportFilters>();
expectTypeOf<ReportFilters>().toExtend<ReportFilterInput>();

describe("list_reports' filters", () => {
  it("are the parameters the table marks, in its order", () => {
    expect(filterNamesOf(OPERATIONS.list_reports)).toEqual(["since", "until", "scope", "scope_target_id", "q"]);
    for (const operation of Object.values(OPERATIONS)) {
      if (operation.name !== "list_reports") expect(filterNamesOf(operation), operation.name).toEqual([]);
    }
  });

  it("leave the limit and the cursor out of an input", () => {
    expect(reportPaging.filtersOf({ ...FILTERS, limit: 5, cursor: "x" })).toEqual(FILTERS);
    expect(reportPaging.filtersOf({ scope: "lead", q: undefined })).toEqual({ scope: "lead" });
  });

  // Cursors already handed out carry these digests: a change would refuse every one of them.
  it("digest as they always have, so that cursors already handed out keep working", () => {
    expect(reportPaging.digest({})).toBe("T1PNoYwrqgwDVLtf");
    expect(reportPaging.digest({ scope: "lead" })).toBe("kh96DrSnMlJRvRzP");
    expect(reportPaging.digest(FILTERS)).toBe("PU9nBbGkVNspa0XO");
    expect(reportPaging.digest({ ...FILTERS, limit: 5, cursor: "x" } as ReportFilterInput)).toBe("PU9nBbGkVNspa0XO");
    // A UTC organization's days digest as the instants they always were parsed to.
    const days = { ...FILTERS, since: { day: "2026-11-16" }, until: { day: "2026-11-22" } };
    expect(reportPaging.digest(days, "UTC")).toBe("PU9nBbGkVNspa0XO");
  });

  // A cursor made while the organization counted its days in one zone does not continue a walk in another.
  it("hold the organization's time zone when a bound is a day, and only then", () => {
    const days = { since: { day: "2026-11-16" }, until: { day: "2026-11-22" } };
    const digests = ["UTC", "America/Los_Angeles", "Europe/Berlin"].map((zone) => reportPaging.digest(days, zone));
    expect(new Set(digests).size).toBe(3);
    expect(reportPaging.digest(FILTERS, "America/Los_Angeles")).toBe(reportPaging.digest(FILTERS, "UTC"));
  });

  it("are the ones docs/api.md says a cursor is bound to", () => {
    const page = readFileSync(path.join(import.meta.dirname, "../../docs/api.md"), "utf8").replace(/\s+/g, " ");
    const listed = /bound to its organization and its filters \(([^;)]*);/.exec(page)?.[1];
    expect(listed?.split(", ")).toEqual(filterNamesOf(OPERATIONS.list_reports).map((name) => `\`${name}\``));
  });
});
