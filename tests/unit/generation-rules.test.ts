import { describe, expect, it } from "vitest";
import type { UpdateContent } from "@/lib/data/updates";
import { addDays, cutoffInstant, dayIn, isoWeekday } from "@/lib/generation/calendar";
import { computeDayReports } from "@/lib/generation/compute";
import type { DayInputs, DayUpdate, GenerationMember } from "@/lib/generation/day-inputs";
import { headline } from "@/lib/generation/headline";
import { kpiStatus } from "@/lib/generation/kpi-status";
import { silentStreak } from "@/lib/generation/silence";

// The rules of generated reports (lib/generation), as pure functions: the cutoff in a zone, KPI status, the
// headline, silent streaks, and what goes into each day's member, lead and organization reports.

describe("the cutoff instant", () => {
  it("is the day's cutoff time in the organization's zone", () => {
    expect(cutoffInstant("2026-11-04", "18:00", "America/Sao_Paulo").toISOString()).toBe("2026-11-04T21:00:00.000Z");
    expect(cutoffInstant("2026-11-04", "18:00", "Asia/Kolkata").toISOString()).toBe("2026-11-04T12:30:00.000Z");
    expect(cutoffInstant("2026-11-04", "09:15", "UTC").toISOString()).toBe("2026-11-04T09:15:00.000Z");
  });

  it("follows a DST change on the day itself", () => {
    // Berlin moves to summer time on 29 March 2026, New York back to standard time on 1 November 2026.
    expect(cutoffInstant("2026-03-28", "18:00", "Europe/Berlin").toISOString()).toBe("2026-03-28T17:00:00.000Z");
    expect(cutoffInstant("2026-03-29", "18:00", "Europe/Berlin").toISOString()).toBe("2026-03-29T16:00:00.000Z");
    expect(cutoffInstant("2026-10-31", "18:00", "America/New_York").toISOString()).toBe("2026-10-31T22:00:00.000Z");
    expect(cutoffInstant("2026-11-01", "18:00", "America/New_York").toISOString()).toBe("2026-11-01T23:00:00.000Z");
  });

  it("counts days as dates", () => {
    expect(dayIn(new Date("2026-11-05T02:00:00Z"), "America/Sao_Paulo")).toBe("2026-11-04");
    expect(dayIn(new Date("2026-11-04T20:00:00Z"), "Asia/Kolkata")).toBe("2026-11-05");
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
    expect([isoWeekday("2026-11-02"), isoWeekday("2026-11-08")]).toEqual([1, 7]);
  });
});

describe("KPI status", () => {
  it("at_least: on track at the target, at risk within 10% below, off track further", () => {
    expect(kpiStatus(50_000, 50_000, "at_least")).toBe("on_track");
    expect(kpiStatus(45_000, 50_000, "at_least")).toBe("at_risk");
    expect(kpiStatus(44_999, 50_000, "at_least")).toBe("off_track");
  });

  it("at_most mirrors it", () => {
    expect(kpiStatus(4, 4, "at_most")).toBe("on_track");
    expect(kpiStatus(4.4, 4, "at_most")).toBe("at_risk");
    expect(kpiStatus(4.5, 4, "at_most")).toBe("off_track");
  });
});

it("the headline counts, with silent only when someone is", () => {
  expect(headline("Ana", { shipped: 2, slipping: 1, blockers: 2, silent: 1 })).toBe(
    "Ana: 2 shipped, 1 slipping, 2 blockers, 1 silent",
  );
  expect(headline("Org", { shipped: 0, slipping: 0, blockers: 1, silent: 0 })).toBe(
    "Org: 0 shipped, 0 slipping, 1 blocker",
  );
});

describe("a silent streak", () => {
  const weekdays = (d: string) => isoWeekday(d) <= 5;
  it("counts working days since the last update, skipping days away and weekends", () => {
    // Last wrote Thursday 29 Oct; away Tuesday 3 Nov; asked on Wednesday 4 Nov: Fri, Mon, Wed.
    const streak = silentStreak({
      day: "2026-11-04",
      lastUpdateDay: "2026-10-29",
      countsFrom: "2026-10-01",
      isWorkingDay: weekdays,
      isAway: (d) => d === "2026-11-03",
    });
    expect(streak).toBe(3);
  });

  it("never counts days before the organization's first update", () => {
    const facts = { day: "2026-11-04", lastUpdateDay: undefined, isWorkingDay: weekdays, isAway: () => false };
    expect(silentStreak({ ...facts, countsFrom: "2026-11-03" })).toBe(2);
    expect(silentStreak({ ...facts, countsFrom: "2026-11-05" })).toBe(0);
  });
});

const content = (c: Partial<UpdateContent>): UpdateContent => ({
  shipped: [],
  slipping: [],
  blockers: [],
  kpis: [],
  note: null,
  ...c,
});
const member = (id: string, name: string, extra: Partial<GenerationMember> = {}): GenerationMember => ({
  id,
  name,
  role: "member",
  department: "Eng",
  isExternal: false,
  active: true,
  createdAt: new Date("2026-01-01T00:00:00Z"),
  ...extra,
});

function inputs(day: string, updates: DayUpdate[], extra: Partial<DayInputs> = {}): DayInputs {
  const lastUpdateDays = new Map<string, string>();
  for (const u of updates) {
    if (u.day <= day && (lastUpdateDays.get(u.memberId) ?? "") < u.day) lastUpdateDays.set(u.memberId, u.day);
  }
  return {
    organization: { name: "Org", timeZone: "UTC", cutoffTime: "18:00", workingDays: [1, 2, 3, 4, 5] },
    day,
    members: [
      member("a", "Ana"),
      member("b", "Bea"),
      member("l", "Lia", { role: "lead" }),
      member("x", "Xen", { isExternal: true }),
      member("n", "New", { createdAt: new Date("2026-11-04T19:00:00Z") }),
    ],
    updates,
    lastUpdateDays,
    firstUpdateDay: updates.map((u) => u.day).sort()[0] ?? null,
    absences: [],
    targets: [],
    ...extra,
  };
}

describe("a day's reports", () => {
  it("a blocker's run is broken by an update without it, not by a day without an update", () => {
    const updates: DayUpdate[] = [
      { memberId: "a", day: "2026-10-29", content: content({ blockers: [{ description: "VPN" }] }) },
      { memberId: "a", day: "2026-10-30", content: content({ shipped: [{ title: "x" }] }) },
      { memberId: "a", day: "2026-11-02", content: content({ blockers: [{ description: "vpn." }] }) },
      { memberId: "a", day: "2026-11-04", content: content({ blockers: [{ description: "VPN" }] }) },
    ];
    const reports = computeDayReports(inputs("2026-11-04", updates));
    const ana = reports.find((r) => r.scope === "member" && r.scope_target_id === "a")!;
    expect(ana.report.blockers).toEqual([
      { description: "VPN", owner: "Ana", member_id: "a", since_days: 2, since: "2026-11-02" },
    ]);
    expect(ana.generated_at).toBe("2026-11-04T18:00:00.000Z");
  });

  it("days_late counts from the due date (0 before it), else from the first day listed", () => {
    const updates: DayUpdate[] = [
      { memberId: "a", day: "2026-11-02", content: content({ slipping: [{ item: "Docs" }] }) },
      {
        memberId: "a",
        day: "2026-11-04",
        content: content({ slipping: [{ item: "Docs" }, { item: "Pilot", due: "2026-11-10" }] }),
      },
    ];
    const [ana] = computeDayReports(inputs("2026-11-04", updates));
    expect(ana!.report.slipping.map((s) => s.days_late)).toEqual([2, 0]);
  });

  it("silent: active team members who joined before the cutoff, not away; lead and org reports carry open items", () => {
    const updates: DayUpdate[] = [
      { memberId: "b", day: "2026-11-02", content: content({ blockers: [{ description: "Legal" }] }) },
      { memberId: "a", day: "2026-11-04", content: content({ shipped: [{ title: "Fix" }] }) },
    ];
    const reports = computeDayReports(
      inputs("2026-11-04", updates, { absences: [{ memberId: "l", firstDay: "2026-11-04", lastDay: "2026-11-05" }] }),
    );
    expect(reports.map((r) => `${r.scope} ${r.scope_target_id}`)).toEqual(["member a", "lead l", "org null"]);
    const org = reports.at(-1)!.report;
    expect(org.silent).toEqual([{ member: "Bea", member_id: "b", days_silent: 2 }]);
    expect(org.blockers).toEqual([
      { description: "Legal", owner: "Bea", member_id: "b", since_days: 2, since: "2026-11-02" },
    ]);
    expect(org.headline).toBe("Org: 1 shipped, 0 slipping, 1 blocker, 1 silent");
  });

  it("on a day that is not a working day, only those who wrote, and nobody silent", () => {
    const saturday = "2026-11-07";
    expect(computeDayReports(inputs(saturday, [{ memberId: "b", day: "2026-11-06", content: content({}) }]))).toEqual(
      [],
    );
    const reports = computeDayReports(
      inputs(saturday, [{ memberId: "a", day: saturday, content: content({ note: "Deploy went fine" }) }]),
    );
    expect(reports.map((r) => r.scope)).toEqual(["member", "lead", "org"]);
    expect(reports.every((r) => r.report.silent.length === 0)).toBe(true);
  });

  it("KPIs take their target and status, named as the founders named them", () => {
    const updates: DayUpdate[] = [
      { memberId: "l", day: "2026-11-04", content: content({ kpis: [{ name: "churn rate", value: 2.1 }] }) },
    ];
    const [lead] = computeDayReports(
      inputs("2026-11-04", updates, {
        targets: [{ nameKey: "churn rate", name: "Churn rate", target: 2, direction: "at_most", unit: "%" }],
      }),
    );
    expect(lead!.report.kpi_status).toEqual([
      { name: "Churn rate", value: 2.1, unit: "%", target: 2, status: "at_risk", owner: "Lia", member_id: "l" },
    ]);
  });
});
