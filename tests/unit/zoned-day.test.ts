import { describe, expect, it } from "vitest";
import { dayBounds } from "@/lib/settings/zoned-day";

// Settings → Reports filters its list by a day of the organization's time zone: the instants from its first
// millisecond to its last, whatever the zone's offset does that day.

describe("dayBounds", () => {
  it("is the UTC day in UTC", () => {
    expect(dayBounds("2026-11-21", "UTC")).toEqual({
      since: "2026-11-21T00:00:00.000Z",
      until: "2026-11-21T23:59:59.999Z",
    });
  });

  it("holds a US-West team's 18:00 report on its own day, not the next UTC day", () => {
    const { since, until } = dayBounds("2026-11-20", "America/Los_Angeles");
    expect({ since, until }).toEqual({ since: "2026-11-20T08:00:00.000Z", until: "2026-11-21T07:59:59.999Z" });
    const sixPm = "2026-11-21T02:00:00.000Z";
    expect(sixPm >= since && sixPm <= until).toBe(true);
  });

  it("spans 23 and 25 hours on the days the clocks change, and east of UTC starts the day before", () => {
    expect(dayBounds("2026-03-08", "America/Los_Angeles")).toEqual({
      since: "2026-03-08T08:00:00.000Z",
      until: "2026-03-09T06:59:59.999Z",
    });
    expect(dayBounds("2026-11-01", "America/Los_Angeles")).toEqual({
      since: "2026-11-01T07:00:00.000Z",
      until: "2026-11-02T07:59:59.999Z",
    });
    expect(dayBounds("2026-11-21", "Asia/Kolkata")).toEqual({
      since: "2026-11-20T18:30:00.000Z",
      until: "2026-11-21T18:29:59.999Z",
    });
  });
});
