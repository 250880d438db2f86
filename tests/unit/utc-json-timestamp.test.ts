import { describe, expect, it } from "vitest";
import { isoFromUtcJson, UTC_JSON_TIMESTAMP } from "@/lib/db/sql";

// PostgreSQL writes a timestamp without time zone into JSON with as many fraction digits as it holds, none to six.
describe("isoFromUtcJson", () => {
  it.each([
    ["2026-11-21T18:30:00", "2026-11-21T18:30:00.000Z"],
    ["2026-11-21T18:30:00.5", "2026-11-21T18:30:00.500Z"],
    ["2026-11-21T18:30:00.05", "2026-11-21T18:30:00.050Z"],
    ["2026-11-21T18:30:00.123", "2026-11-21T18:30:00.123Z"],
    ["2026-11-21T18:30:00.123999", "2026-11-21T18:30:00.123Z"],
  ])("%s is %s", (json, iso) => {
    expect(UTC_JSON_TIMESTAMP.test(json)).toBe(true);
    expect(isoFromUtcJson(json)).toBe(iso);
    expect(new Date(iso).toISOString()).toBe(iso);
  });

  it.each(["2026-11-21T18:30:00Z", "2026-11-21T18:30:00+00:00", "2026-11-21 18:30:00", "2026-11-21T18:30:00.1234567"])(
    "the check refuses %s, which is not the database's form",
    (text) => expect(UTC_JSON_TIMESTAMP.test(text)).toBe(false),
  );
});
