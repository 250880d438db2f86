import { randomUUID } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { ActivityLog } from "@/components/settings/activity-log";
import { listActivity, recordActivity, type Actor } from "@/lib/data/activity";
import { getDb } from "@/lib/db";
import { user } from "../helpers/settings-forms";

// The organization's activity trail that settings sections write to (lib/data/activity.ts): a change and its line
// are one transaction, and a section reads the lines of its own kinds of subject, its organization's only.

// A kind of subject no other test writes, so the lines asserted are this test's own.
const kind = () => `test-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  await getDb();
});

describe("the activity trail", () => {
  it("lists a change's line with who made it (as the roster names them now), what and when, newest first", async () => {
    const founder = await user("founder@acme.example");
    const org = founder.organization.id;
    const subject = kind();
    const actor: Actor = { userId: founder.userId, label: "a name the roster no longer uses" };
    const db = await getDb();
    const id = randomUUID();
    await db.$transaction((tx) =>
      recordActivity(tx, org, actor, { subject: { type: subject, id, label: "Ana Lima" }, action: "invited" }),
    );
    await db.$transaction((tx) =>
      recordActivity(
        tx,
        org,
        { label: "cli" },
        {
          subject: { type: subject, id, label: "Ana Lima" },
          action: "role_changed",
          detail: { from: "member", to: "lead" },
        },
      ),
    );

    const lines = await listActivity(org, [subject]);
    expect(lines).toMatchObject([
      {
        subject: { type: subject, id, label: "Ana Lima" },
        action: "role_changed",
        detail: { from: "member", to: "lead" },
        actor: "cli",
      },
      { subject: { type: subject, id, label: "Ana Lima" }, action: "invited", detail: null, actor: founder.name },
    ]);
    expect(lines[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(lines[1]!.createdAt.getTime());
  });

  it("keeps no line of a change that did not happen: the line is written in the change's own transaction", async () => {
    const lead = await user("lead@acme.example");
    const subject = kind();
    const db = await getDb();
    await expect(
      db.$transaction(async (tx) => {
        await recordActivity(
          tx,
          lead.organization.id,
          { userId: lead.userId, label: lead.name },
          {
            subject: { type: subject, label: "a report" },
            action: "deleted",
          },
        );
        throw new Error("the change itself failed");
      }),
    ).rejects.toThrow("the change itself failed");
    expect(await listActivity(lead.organization.id, [subject])).toEqual([]);
  });

  it("shows a section only its own kinds of subject, and an organization only its own lines", async () => {
    const acme = await user("founder@acme.example");
    const globex = await user("founder@globex.example");
    const [team, reports] = [kind(), kind()];
    const db = await getDb();
    await db.$transaction(async (tx) => {
      await recordActivity(
        tx,
        acme.organization.id,
        { label: "cli" },
        { subject: { type: team, label: "Ana" }, action: "added" },
      );
      await recordActivity(
        tx,
        acme.organization.id,
        { label: "cli" },
        { subject: { type: reports, label: "r" }, action: "deleted" },
      );
      await recordActivity(
        tx,
        globex.organization.id,
        { label: "cli" },
        { subject: { type: team, label: "Bo" }, action: "added" },
      );
    });
    expect((await listActivity(acme.organization.id, [team])).map((line) => line.subject.label)).toEqual(["Ana"]);
    expect((await listActivity(acme.organization.id, [team, reports])).map((line) => line.subject.type).sort()).toEqual(
      [team, reports].sort(),
    );
    expect((await listActivity(globex.organization.id, [team])).map((line) => line.subject.label)).toEqual(["Bo"]);
  });

  it("reads on a section's page as who did what to which, with its facts", async () => {
    const lead = await user("lead@acme.example");
    const subject = kind();
    const db = await getDb();
    await db.$transaction((tx) =>
      recordActivity(
        tx,
        lead.organization.id,
        { userId: lead.userId, label: lead.name },
        {
          subject: { type: subject, label: "Ana Lima" },
          action: "role_changed",
          detail: { from: "member", to: "lead" },
        },
      ),
    );
    const html = renderToStaticMarkup(
      createElement(ActivityLog, {
        lines: await listActivity(lead.organization.id, [subject]),
        verbs: { role_changed: "changed the role of" },
        detail: ({ from, to }) => `${from} → ${to}`,
        summary: "People added, changed and deactivated, newest first",
        empty: "No changes yet.",
      }),
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain(`${lead.name} changed the role of Ana Lima (member → lead)`);
    expect(html).toMatch(/<h2 id="activity-title">Activity<\/h2>/);
  });
});
