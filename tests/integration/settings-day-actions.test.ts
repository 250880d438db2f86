import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUpdate, saveUpdate, type UpdateContent } from "@/lib/data/updates";
import { getDb } from "@/lib/db";
import { saveDay } from "@/lib/settings/day-actions";
import { form } from "../helpers/settings-forms";
import { createSettingsOrg, type SettingsOrg } from "../helpers/settings-org";

// "Your day"'s action on the settings kit: everyone writes their own update for today in the organization's time
// zone; the previous update's open items carried forward as chosen; KPI values from founders and leads only.

let org: SettingsOrg;

beforeAll(async () => {
  org = await createSettingsOrg("day-page");
});

afterAll(async () => {
  await org?.remove();
});

/** A morning in the organization (UTC until a test moves it). */
const NOW = new Date("2026-11-27T10:00:00Z");
const TODAY = "2026-11-27";

const EMPTY: UpdateContent = { shipped: [], slipping: [], blockers: [], kpis: [], note: null };

const day = (fields: Record<string, string | string[]>) => form({ day: TODAY, ...fields });

describe("Your day", () => {
  it("a member writes today's update, stored as written; the same again changes nothing; empty removes it", async () => {
    const posted = day({
      shipped: ["Billing page", "  ", "Invoice e-mails"],
      slippingItem: ["Onboarding flow", ""],
      slippingReason: ["waiting on copy", ""],
      slippingDue: ["2026-12-02", ""],
      blocker: ["Need the API key from Ana, ana@acme.example", ""],
      note: "  Call me on +1 202 555 0143 if anything breaks.  ",
      // Someone else's id in the form is ignored: the person is the session's.
      memberId: org.lead.memberId,
    });
    expect(await saveDay.forUser(org.member, posted, NOW)).toEqual({ status: "saved", day: TODAY, outcome: "added" });
    const stored = await getUpdate(org.id, org.member.memberId, TODAY);
    expect(stored).toMatchObject({ source: "page" });
    expect(stored!.content).toEqual({
      shipped: [{ title: "Billing page" }, { title: "Invoice e-mails" }],
      slipping: [{ item: "Onboarding flow", reason: "waiting on copy", due: "2026-12-02" }],
      blockers: [{ description: "Need the API key from Ana, ana@acme.example" }],
      kpis: [],
      note: "Call me on +1 202 555 0143 if anything breaks.",
    });
    expect(await getUpdate(org.id, org.lead.memberId, TODAY)).toBeNull();
    await expect(saveDay.forUser(org.member, posted, NOW)).resolves.toMatchObject({ outcome: "unchanged" });
    await expect(saveDay.forUser(org.member, day({ shipped: [""], note: " " }), NOW)).resolves.toMatchObject({
      outcome: "removed",
    });
    expect(await getUpdate(org.id, org.member.memberId, TODAY)).toBeNull();
  });

  it("carries the previous update's items marked still open, and leaves the resolved ones", async () => {
    await saveUpdate(org.id, {
      memberId: org.member.memberId,
      day: "2026-11-25",
      source: "page",
      content: {
        ...EMPTY,
        blockers: [{ description: "Staging is down" }, { description: "Waiting on legal" }],
        slipping: [{ item: "Search", reason: "scope grew", due: "2026-11-26" }, { item: "Exports" }],
      },
    });
    const state = await saveDay.forUser(
      org.member,
      day({
        blocker: ["Design review pending"],
        carryBlocker: "ignored",
        "carryBlocker-0": "open",
        "carryBlocker-1": "resolved",
        "carrySlipping-0": "open",
        // An item the previous update does not have carries nothing.
        "carrySlipping-7": "open",
      }),
      NOW,
    );
    expect(state).toMatchObject({ status: "saved", outcome: "added" });
    expect((await getUpdate(org.id, org.member.memberId, TODAY))!.content).toEqual({
      ...EMPTY,
      blockers: [{ description: "Staging is down" }, { description: "Design review pending" }],
      slipping: [{ item: "Search", reason: "scope grew", due: "2026-11-26" }],
    });
    // Carried again while typed again (any case): one item, not two.
    await saveDay.forUser(org.member, day({ blocker: ["STAGING is down"], "carryBlocker-0": "open" }), NOW);
    expect((await getUpdate(org.id, org.member.memberId, TODAY))!.content.blockers).toEqual([
      { description: "STAGING is down" },
    ]);
  });

  it("writes into today in the organization's time zone, and refuses a page left open over its midnight", async () => {
    const db = await getDb();
    await db.organization.update({ where: { id: org.id }, data: { timeZone: "Pacific/Auckland" } });
    try {
      // 20:00 UTC on the 27th is the 28th in Auckland.
      const evening = new Date("2026-11-27T20:00:00Z");
      const state = await saveDay.forUser(org.lead, day({ shipped: "Late fix" }), evening);
      expect(state).toEqual({
        status: "error",
        message:
          "It is 2026-11-28 now in the organization, no longer 2026-11-27. Nothing was saved: reload the page to write today’s update.",
        fieldErrors: {},
        values: expect.objectContaining({ shipped: ["Late fix"] }),
      });
      expect(await getUpdate(org.id, org.lead.memberId, TODAY)).toBeNull();
      await expect(
        saveDay.forUser(org.lead, form({ day: "2026-11-28", shipped: "Late fix" }), evening),
      ).resolves.toMatchObject({ status: "saved", day: "2026-11-28" });
      expect(await getUpdate(org.id, org.lead.memberId, "2026-11-28")).not.toBeNull();
    } finally {
      await db.organization.update({ where: { id: org.id }, data: { timeZone: "UTC" } });
    }
  });

  it("takes KPI values from founders and leads, and refuses a member's beside the KPIs, writing nothing", async () => {
    const kpis = { kpiName: ["MRR", "NPS", ""], kpiValue: ["120.5", "-3", ""] };
    await expect(saveDay.forUser(org.founder, day(kpis), NOW)).resolves.toMatchObject({ status: "saved" });
    expect((await getUpdate(org.id, org.founder.memberId, TODAY))!.content.kpis).toEqual([
      { name: "MRR", value: 120.5 },
      { name: "NPS", value: -3 },
    ]);
    const refused = await saveDay.forUser(org.member, day({ ...kpis, shipped: "Something" }), NOW);
    expect(refused).toMatchObject({
      status: "error",
      message: "Your update was not saved. Fix the sections marked below.",
      fieldErrors: { kpis: "Only founders and leads report KPI values." },
    });
    const before = await getUpdate(org.id, org.member.memberId, TODAY);
    expect(before!.content.shipped).toEqual([]);
  });

  it("refuses bad input beside its section, keeping what was typed and writing nothing", async () => {
    const before = await getUpdate(org.id, org.lead.memberId, TODAY);
    const state = await saveDay.forUser(
      org.lead,
      day({
        shipped: "x".repeat(1_001),
        slippingItem: [""],
        slippingReason: ["no item given"],
        slippingDue: ["next week"],
        kpiName: ["MRR"],
        kpiValue: ["lots"],
        note: "kept",
      }),
      NOW,
    );
    expect(state).toMatchObject({
      status: "error",
      message: "Your update was not saved. Fix the sections marked below.",
      fieldErrors: {
        shipped: "Must be at most 1000 characters.",
        slipping: "Must not be empty.",
        kpis: "Must be a number.",
      },
      values: { slippingReason: ["no item given"], kpiValue: ["lots"], note: "kept" },
    });
    expect(await getUpdate(org.id, org.lead.memberId, TODAY)).toEqual(before);
  });

  it("is everyone's, but only signed in", async () => {
    const state = await saveDay.forUser(null, day({ shipped: "Anything" }), NOW);
    expect(state).toMatchObject({
      status: "error",
      message: "Your session has ended. Sign in again to write your day’s update.",
    });
  });
});
