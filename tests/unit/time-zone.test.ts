import { describe, expect, it } from "vitest";
import { timeZoneSchema } from "@/lib/schemas/time-zone";

// An organization's time zone: an IANA name the runtime knows, stored under its canonical name.

describe("time zone rule", () => {
  it.each([
    ["UTC", "UTC"],
    ["America/Los_Angeles", "America/Los_Angeles"],
    ["america/los_angeles", "America/Los_Angeles"],
    [" Europe/Berlin ", "Europe/Berlin"],
    ["US/Pacific", "America/Los_Angeles"],
    ["Etc/UTC", "UTC"],
  ])("takes %j as %s", (given, stored) => {
    expect(timeZoneSchema.parse(given)).toBe(stored);
  });

  it("takes every zone of the runtime's Intl list as it is", () => {
    for (const zone of Intl.supportedValuesOf("timeZone")) expect(timeZoneSchema.parse(zone)).toBe(zone);
  });

  it.each(["", "Mars/Olympus", "+05:30", "UTC+2", "Etc/GMT+8", "America/Los Angeles", "x".repeat(300)])(
    "refuses %j, with examples of names it takes",
    (given) => {
      const result = timeZoneSchema.safeParse(given);
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toMatch(
        /is not an IANA time zone: use a name such as America\/Los_Angeles, Europe\/Berlin or UTC\.$/,
      );
      expect(result.error!.issues[0]!.message.length).toBeLessThan(160);
    },
  );
});
