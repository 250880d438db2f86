import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { listActivity } from "@/lib/data/activity";
import { getOrganizationSettings, ORGANIZATION_SUBJECT } from "@/lib/data/organizations";
import { listKpiTargets } from "@/lib/data/kpi-targets";
import {
  removeKpiTargetAction,
  setKpiTargetAction,
  updateOrganization,
  updateReportSchedule,
} from "@/lib/settings/organization-actions";
import { form } from "../helpers/settings-forms";
import { createSettingsOrg, type SettingsOrg } from "../helpers/settings-org";

// Settings → Organization's action on the settings kit: founders only, the organization from the session, each change
// in the trail. In organizations of this file's own (the demo ones' time zone is read by other tests).

let org: SettingsOrg;
let other: SettingsOrg;

beforeAll(async () => {
  org = await createSettingsOrg("org-page");
  other = await createSettingsOrg("org-other");
});

afterAll(async () => {
  await org?.remove();
  await other?.remove();
});

const snapshot = async (o: SettingsOrg) => ({
  settings: await getOrganizationSettings(o.id),
  targets: await listKpiTargets(o.id),
  trail: await listActivity(o.id, [ORGANIZATION_SUBJECT]),
});

describe("the organization's settings", () => {
  it("a founder renames it and sets its time zone (any spelling Intl takes), each change a line", async () => {
    const state = await updateOrganization.forUser(
      org.founder,
      form({ name: "  Dawn Patrol  ", timeZone: "america/los_angeles", organizationId: other.id }),
    );
    expect(state).toEqual({ status: "saved", name: "Dawn Patrol", timeZone: "America/Los_Angeles", changed: true });
    expect(await getOrganizationSettings(org.id)).toEqual({
      name: "Dawn Patrol",
      timeZone: "America/Los_Angeles",
      cutoffTime: "18:00",
      workingDays: [1, 2, 3, 4, 5],
    });
    const trail = await listActivity(org.id, [ORGANIZATION_SUBJECT]);
    expect(trail.map((l) => [l.actor, l.action, l.detail])).toEqual(
      expect.arrayContaining([
        ["Fran Founder", "renamed", { from: org.name, to: "Dawn Patrol" }],
        ["Fran Founder", "time_zone_changed", { from: "UTC", to: "America/Los_Angeles" }],
      ]),
    );
    expect(trail).toHaveLength(2);
    // The same again changes nothing and writes no line.
    await expect(
      updateOrganization.forUser(org.founder, form({ name: "Dawn Patrol", timeZone: "America/Los_Angeles" })),
    ).resolves.toMatchObject({ status: "saved", changed: false });
    expect(await listActivity(org.id, [ORGANIZATION_SUBJECT])).toHaveLength(2);
    // The form named another organization: it is untouched.
    expect((await getOrganizationSettings(other.id)).timeZone).toBe("UTC");
  });

  it("refuses a zone that is not an IANA name and an empty name beside each field, changing nothing", async () => {
    const before = await snapshot(org);
    const state = await updateOrganization.forUser(org.founder, form({ name: " ", timeZone: "+05:30" }));
    expect(state).toEqual({
      status: "error",
      message: "Nothing was changed. Fix the fields marked below.",
      fieldErrors: {
        name: "Enter the organization's name.",
        timeZone: '"+05:30" is not an IANA time zone: use a name such as America/Los_Angeles, Europe/Berlin or UTC.',
      },
      values: { name: " ", timeZone: "+05:30" },
    });
    expect(await snapshot(org)).toEqual(before);
  });

  it("is for founders only: a lead, a member and someone signed out are refused", async () => {
    const before = await snapshot(org);
    for (const [who, message] of [
      [org.lead, "Only founders can change the organization’s settings."],
      [org.member, "Only founders can change the organization’s settings."],
      [null, expect.stringMatching(/Sign in again to change the organization’s settings/)],
    ] as const) {
      const state = await updateOrganization.forUser(who, form({ name: "Taken over", timeZone: "Europe/Berlin" }));
      expect(state).toMatchObject({ status: "error", message });
    }
    expect(await snapshot(org)).toEqual(before);
  });

  it("writes the CLI's change of time zone in the same trail, by cli", async () => {
    await runCommand("orgs.update", { org: org.slug, timeZone: "Europe/Berlin" });
    const [line] = await listActivity(org.id, [ORGANIZATION_SUBJECT]);
    expect(line).toMatchObject({
      actor: "cli",
      action: "time_zone_changed",
      detail: { from: "America/Los_Angeles", to: "Europe/Berlin" },
    });
  });
});

describe("when the organization's reports are written", () => {
  it("a founder sets the cutoff and the working days, each change a line; the same again writes none", async () => {
    const state = await updateReportSchedule.forUser(
      org.founder,
      form({ cutoffTime: "17:30", workingDays: ["2", "1", "3", "4", "6", "1"] }),
    );
    expect(state).toEqual({ status: "saved", cutoffTime: "17:30", workingDays: [1, 2, 3, 4, 6], changed: true });
    expect(await getOrganizationSettings(org.id)).toMatchObject({ cutoffTime: "17:30", workingDays: [1, 2, 3, 4, 6] });
    const [days, cutoff] = await listActivity(org.id, [ORGANIZATION_SUBJECT]);
    expect([cutoff, days].map((l) => [l!.actor, l!.action, l!.detail])).toEqual([
      ["Fran Founder", "cutoff_changed", { from: "18:00", to: "17:30" }],
      ["Fran Founder", "working_days_changed", { from: "Mon–Fri", to: "Mon–Thu, Sat" }],
    ]);
    const lines = (await listActivity(org.id, [ORGANIZATION_SUBJECT])).length;
    await expect(
      updateReportSchedule.forUser(org.founder, form({ cutoffTime: "17:30", workingDays: ["1", "2", "3", "4", "6"] })),
    ).resolves.toMatchObject({ changed: false });
    expect(await listActivity(org.id, [ORGANIZATION_SUBJECT])).toHaveLength(lines);
    // The other organization keeps its own.
    expect(await getOrganizationSettings(other.id)).toMatchObject({
      cutoffTime: "18:00",
      workingDays: [1, 2, 3, 4, 5],
    });
  });

  it("refuses a time that is not HH:MM and no working day beside each field, changing nothing", async () => {
    const before = await snapshot(org);
    for (const [fields, errors] of [
      [
        { cutoffTime: "25:00" },
        {
          cutoffTime: "Enter the cutoff as HH:MM on a 24-hour clock, e.g. 18:00.",
          workingDays: "Choose at least one working day.",
        },
      ],
      [
        { cutoffTime: "6pm", workingDays: ["8"] },
        {
          cutoffTime: "Enter the cutoff as HH:MM on a 24-hour clock, e.g. 18:00.",
          workingDays: "Choose days of the week from the list.",
        },
      ],
    ] as const) {
      const state = await updateReportSchedule.forUser(org.founder, form(fields as Record<string, string | string[]>));
      expect(state).toMatchObject({
        status: "error",
        message: "Nothing was changed. Fix the fields marked below.",
        fieldErrors: errors,
      });
    }
    expect(await snapshot(org)).toEqual(before);
  });

  it("is for founders: a lead sees the section but is refused its changes, as are members", async () => {
    const before = await snapshot(org);
    for (const who of [org.lead, org.member]) {
      await expect(
        updateReportSchedule.forUser(who, form({ cutoffTime: "09:00", workingDays: ["7"] })),
      ).resolves.toMatchObject({ status: "error", message: "Only founders can change the organization’s settings." });
      await expect(
        setKpiTargetAction.forUser(who, form({ name: "MRR", target: "1", direction: "at_least", unit: "" })),
      ).resolves.toMatchObject({ status: "error", message: "Only founders can change the organization’s settings." });
    }
    expect(await snapshot(org)).toEqual(before);
  });
});

describe("KPI targets", () => {
  it("a founder sets one, changes it under any spelling of its name, and removes it, each a line", async () => {
    const set = await setKpiTargetAction.forUser(
      org.founder,
      form({ name: " MRR ", target: "120", direction: "at_least", unit: "k€" }),
    );
    expect(set).toEqual({ status: "saved", name: "MRR", outcome: "added" });
    await expect(
      setKpiTargetAction.forUser(
        org.founder,
        form({ name: "mrr!", target: "150.5", direction: "at_least", unit: "k€" }),
      ),
    ).resolves.toEqual({ status: "saved", name: "mrr!", outcome: "changed" });
    await setKpiTargetAction.forUser(
      org.founder,
      form({ name: "Churn", target: "2", direction: "at_most", unit: "%" }),
    );
    expect(await listKpiTargets(org.id)).toEqual([
      { nameKey: "churn", name: "Churn", target: 2, direction: "at_most", unit: "%" },
      { nameKey: "mrr", name: "mrr!", target: 150.5, direction: "at_least", unit: "k€" },
    ]);
    await expect(removeKpiTargetAction.forUser(org.founder, form({ nameKey: "churn" }))).resolves.toEqual({
      status: "removed",
    });
    await expect(removeKpiTargetAction.forUser(org.founder, form({ nameKey: "churn" }))).resolves.toEqual({
      status: "error",
      message: "This KPI has no target in your organization.",
    });
    // Another organization's target reads as unknown too.
    await setKpiTargetAction.forUser(other.founder, form({ name: "NPS", target: "40", direction: "at_least" }));
    await expect(removeKpiTargetAction.forUser(org.founder, form({ nameKey: "nps" }))).resolves.toMatchObject({
      status: "error",
    });
    expect(await listKpiTargets(other.id)).toHaveLength(1);
    expect((await listKpiTargets(org.id)).map((t) => t.nameKey)).toEqual(["mrr"]);
    const trail = await listActivity(org.id, [ORGANIZATION_SUBJECT]);
    expect(trail.slice(0, 4).map((l) => [l.action, l.subject.label, l.detail])).toEqual([
      ["kpi_target_removed", "Churn", { target: "at most 2 %" }],
      ["kpi_target_set", "Churn", { target: "at most 2 %" }],
      ["kpi_target_changed", "mrr!", { target: "at least 150.5 k€" }],
      ["kpi_target_set", "MRR", { target: "at least 120 k€" }],
    ]);
  });

  it("refuses a target that is not a number, a name of punctuation only and an unknown direction, changing nothing", async () => {
    const before = await snapshot(org);
    await expect(
      setKpiTargetAction.forUser(org.founder, form({ name: "", target: "lots", direction: "around", unit: "" })),
    ).resolves.toMatchObject({
      status: "error",
      message: "No target was set. Fix the fields marked below.",
      fieldErrors: {
        name: "Enter the KPI's name.",
        target: "Enter the target as a number, e.g. 120 or 0.5.",
        direction: "Choose at least or at most.",
      },
      values: { target: "lots" },
    });
    await expect(
      setKpiTargetAction.forUser(org.founder, form({ name: "!!!", target: "1", direction: "at_most" })),
    ).resolves.toMatchObject({ status: "error", fieldErrors: { name: "A KPI's name needs a letter or a digit." } });
    expect(await snapshot(org)).toEqual(before);
  });
});
