import { describe, expect, it } from "vitest";
import { weekdaysText } from "@/lib/data/organizations";
import { organizationDay } from "@/lib/data/your-day";
import { dayFormFields } from "@/lib/settings/day-inputs";
import { form } from "../helpers/settings-forms";

describe("the organization's day", () => {
  it("is the date, time and ISO weekday in its time zone", () => {
    const instant = new Date("2026-11-27T23:30:00Z");
    expect(organizationDay(instant, "UTC")).toEqual({ day: "2026-11-27", time: "23:30", weekday: 5 });
    expect(organizationDay(instant, "Europe/Berlin")).toEqual({ day: "2026-11-28", time: "00:30", weekday: 6 });
    expect(organizationDay(instant, "America/Los_Angeles")).toEqual({ day: "2026-11-27", time: "15:30", weekday: 5 });
    expect(organizationDay(new Date("2026-11-29T12:00:00Z"), "UTC").weekday).toBe(7);
  });

  it("names working days as people do: runs of three or more as a span", () => {
    expect(weekdaysText([1, 2, 3, 4, 5])).toBe("Mon–Fri");
    expect(weekdaysText([5, 3, 1])).toBe("Mon, Wed, Fri");
    expect(weekdaysText([1, 2, 3, 4, 6])).toBe("Mon–Thu, Sat");
    expect(weekdaysText([6, 7])).toBe("Sat, Sun");
    expect(weekdaysText([1, 2, 3, 4, 5, 6, 7])).toBe("Mon–Sun");
  });
});

describe("the day form as the server reads it", () => {
  it("drops blank rows, pairs each row's details, and reads which of the previous items stay open", () => {
    const read = dayFormFields(
      form({
        day: "2026-11-27",
        shipped: ["One", " ", "Two"],
        slippingItem: ["Late", "", ""],
        slippingReason: ["", "orphan reason", ""],
        slippingDue: ["2026-12-01", "", ""],
        blocker: ["", "Stuck"],
        kpiName: ["MRR", "", ""],
        kpiValue: [" 12.5 ", "", "7"],
        note: "Hi",
        "carryBlocker-0": "open",
        "carryBlocker-1": "resolved",
        "carrySlipping-3": "open",
      }),
    );
    expect(read).toEqual({
      day: "2026-11-27",
      shipped: [{ title: "One" }, { title: "Two" }],
      slipping: [
        { item: "Late", reason: undefined, due: "2026-12-01" },
        // A reason without its item is kept, for the schema to refuse.
        { item: "", reason: "orphan reason", due: undefined },
      ],
      blockers: [{ description: "Stuck" }],
      kpis: [
        { name: "MRR", value: 12.5 },
        { name: "", value: 7 },
      ],
      note: "Hi",
      carryBlockers: [0],
      carrySlipping: [3],
    });
  });
});
