import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { listActivity } from "@/lib/data/activity";
import { getOrganizationSettings, ORGANIZATION_SUBJECT } from "@/lib/data/organizations";
import { updateOrganization } from "@/lib/settings/organization-actions";
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
  trail: await listActivity(o.id, [ORGANIZATION_SUBJECT]),
});

describe("the organization's settings", () => {
  it("a founder renames it and sets its time zone (any spelling Intl takes), each change a line", async () => {
    const state = await updateOrganization.forUser(
      org.founder,
      form({ name: "  Dawn Patrol  ", timeZone: "america/los_angeles", organizationId: other.id }),
    );
    expect(state).toEqual({ status: "saved", name: "Dawn Patrol", timeZone: "America/Los_Angeles", changed: true });
    expect(await getOrganizationSettings(org.id)).toEqual({ name: "Dawn Patrol", timeZone: "America/Los_Angeles" });
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
