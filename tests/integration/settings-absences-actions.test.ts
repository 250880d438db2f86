import { beforeEach, describe, expect, it } from "vitest";
import { listAbsences } from "@/lib/data/absences";
import { listActivity } from "@/lib/data/activity";
import { getDb } from "@/lib/db";
import { addAbsence, removeAbsence } from "@/lib/settings/team-actions";
import { form } from "../helpers/settings-forms";
import { createSettingsOrg, type SettingsOrg } from "../helpers/settings-org";

// Settings → Team's absences: founders and leads set and remove them, a lead not a founder's (the roster's rule),
// each a line in the team's trail; bad dates are refused beside their field and change nothing.

let org: SettingsOrg;
let other: SettingsOrg;

beforeEach(async () => {
  await getDb();
  org = await createSettingsOrg("absences");
  other = await createSettingsOrg("absences-other");
});

const away = (memberId: string, firstDay: string, lastDay: string) => form({ memberId, firstDay, lastDay });

describe("Settings → Team: absences", () => {
  it("a lead sets a member's absence and removes it, each a line; the same stretch twice is one", async () => {
    const state = await addAbsence.forUser(org.lead, away(org.member.memberId, "2026-12-01", "2026-12-05"));
    expect(state).toEqual({ status: "added", added: true, firstDay: "2026-12-01", lastDay: "2026-12-05" });
    await expect(
      addAbsence.forUser(org.founder, away(org.member.memberId, "2026-12-01", "2026-12-05")),
    ).resolves.toMatchObject({ status: "added", added: false });
    const [absence, ...more] = await listAbsences(org.id);
    expect(more).toEqual([]);
    expect(absence).toMatchObject({ memberId: org.member.memberId, firstDay: "2026-12-01", lastDay: "2026-12-05" });
    await expect(
      removeAbsence.forUser(org.lead, form({ memberId: org.member.memberId, absenceId: absence!.id })),
    ).resolves.toEqual({ status: "removed" });
    expect(await listAbsences(org.id)).toEqual([]);
    const trail = await listActivity(org.id, ["member"]);
    expect(trail.map((l) => [l.actor, l.action, l.subject.label, l.detail])).toEqual([
      ["Lee Lead", "absence removed", "Max Member", { from: "2026-12-01", to: "2026-12-05" }],
      ["Lee Lead", "absence added", "Max Member", { from: "2026-12-01", to: "2026-12-05" }],
    ]);
  });

  it("a lead cannot set or remove a founder's absence; a founder can", async () => {
    await expect(
      addAbsence.forUser(org.lead, away(org.founder.memberId, "2026-12-01", "2026-12-01")),
    ).resolves.toMatchObject({ status: "error", message: "Only founders can change a founder." });
    expect(await listAbsences(org.id)).toEqual([]);
    await addAbsence.forUser(org.founder, away(org.founder.memberId, "2026-12-01", "2026-12-01"));
    const [absence] = await listAbsences(org.id);
    await expect(
      removeAbsence.forUser(org.lead, form({ memberId: org.founder.memberId, absenceId: absence!.id })),
    ).resolves.toEqual({ status: "error", message: "Only founders can change a founder." });
    expect(await listAbsences(org.id)).toHaveLength(1);
  });

  it("refuses members, someone signed out, and another organization's people and absences, changing nothing", async () => {
    await expect(
      addAbsence.forUser(org.member, away(org.member.memberId, "2026-12-01", "2026-12-02")),
    ).resolves.toMatchObject({ status: "error", message: "Only founders and leads can manage the team." });
    await expect(
      addAbsence.forUser(null, away(org.member.memberId, "2026-12-01", "2026-12-02")),
    ).resolves.toMatchObject({ status: "error", message: "Your session has ended. Sign in again to manage the team." });
    await expect(
      addAbsence.forUser(org.lead, away(other.member.memberId, "2026-12-01", "2026-12-02")),
    ).resolves.toMatchObject({ status: "error", message: "This person does not exist in your organization." });
    await addAbsence.forUser(other.lead, away(other.member.memberId, "2026-12-01", "2026-12-02"));
    const [theirs] = await listAbsences(other.id);
    await expect(
      removeAbsence.forUser(org.lead, form({ memberId: other.member.memberId, absenceId: theirs!.id })),
    ).resolves.toEqual({ status: "error", message: "This absence does not exist in your organization." });
    expect(await listAbsences(org.id)).toEqual([]);
    expect(await listAbsences(other.id)).toHaveLength(1);
  });

  it("refuses dates that are not dates, a last day before the first and more than a year, beside the field", async () => {
    for (const [firstDay, lastDay, fieldErrors] of [
      ["", "someday", { firstDay: "Enter the first day.", lastDay: "Enter the last day as a date, YYYY-MM-DD." }],
      ["2026-12-05", "2026-12-01", { lastDay: "The last day cannot be before the first." }],
      ["2026-01-01", "2027-01-02", { lastDay: "An absence lasts at most 366 days." }],
    ] as const) {
      const state = await addAbsence.forUser(org.founder, away(org.member.memberId, firstDay, lastDay));
      expect(state).toEqual({
        status: "error",
        message: "No absence was added. Fix the fields marked below.",
        fieldErrors,
        values: { firstDay, lastDay },
      });
    }
    expect(await listAbsences(org.id)).toEqual([]);
  });
});
