import { describe, expect, it } from "vitest";
import { utcDay } from "@/lib/data/key-usage";

// Usage is counted by UTC day on every keyed request; the day is kept between calls, so it must move exactly
// at midnight UTC, both ways (a flush may count an older instant after a newer one).
describe("utcDay", () => {
  it("changes exactly at midnight UTC, forwards and back", () => {
    const midnight = Date.parse("2026-11-25T00:00:00.000Z");
    expect(utcDay(midnight - 1)).toBe("2026-11-24");
    expect(utcDay(midnight)).toBe("2026-11-25");
    expect(utcDay(midnight - 1)).toBe("2026-11-24");
    expect(utcDay(midnight + 86_399_999)).toBe("2026-11-25");
    expect(utcDay(midnight + 86_400_000)).toBe("2026-11-26");
  });

  it("answers instants before 1970 too", () => {
    expect(utcDay(Date.parse("1969-12-31T23:59:59.999Z"))).toBe("1969-12-31");
    expect(utcDay(Date.parse("1970-01-01T00:00:00.000Z"))).toBe("1970-01-01");
  });
});
