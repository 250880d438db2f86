import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { listActivity } from "@/lib/data/activity";
import { getDb } from "@/lib/db";
import { relayOutbox } from "@/lib/webhooks/relay";

// What an import, a replacement and a deletion leave behind besides the reports: their webhook events
// (report.published, report.updated, report.deleted), each announced once, and their lines in the activity trail.
// In an organization of this file's own, with one endpoint subscribed to every report event and one member whose
// chat handle a deleted report's headline quotes (the event carries it masked, as the API serves it).

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release" }],
  silent: [],
  slipping: [],
  blockers: [],
});

let org: { id: string; slug: string };
let endpointId: string;

beforeAll(async () => {
  const db = await getDb();
  org = await db.organization.create({
    data: { slug: `events-${randomUUID().slice(0, 8)}`, name: "Events" },
    select: { id: true, slug: true },
  });
  await db.member.create({
    data: { organizationId: org.id, name: "Pia Handle", role: "member", chatHandle: "@piahandle" },
    select: { id: true },
  });
  endpointId = (
    await db.webhookEndpoint.create({
      data: {
        organizationId: org.id,
        // Resolves nowhere and the organization is removed after the file: no delivery pass reaches it.
        url: "https://hooks.example.invalid/sundown",
        events: ["report.published", "report.updated", "report.deleted"],
        secretSealed: "sealed",
      },
      select: { id: true },
    })
  ).id;
});

afterAll(async () => {
  const db = await getDb();
  await db.organization.delete({ where: { id: org.id } });
});

/** The outbox's events of this organization, oldest first, as (type, subject) pairs. */
async function outbox(): Promise<[string, string][]> {
  const db = await getDb();
  const rows = await db.webhookOutbox.findMany({
    where: { organizationId: org.id },
    select: { type: true, subjectIds: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.flatMap((r) => r.subjectIds.map((id): [string, string] => [r.type, id]));
}

const importFile = (reports: unknown[], replace = false) =>
  runCommand("reports.import", { org: org.slug, reports, replace });

describe("report events and the trail", () => {
  const monday = { scope: "org", generated_at: "2026-11-23T18:00:00Z", report: content("Monday") };
  let mondayId: string;

  it("an import announces each added report once, and a retry announces nothing and writes no line", async () => {
    const first = await importFile([monday]);
    mondayId = first.reports[0]!.id;
    expect(await outbox()).toEqual([["report.published", mondayId]]);
    const again = await importFile([monday]);
    expect(again).toMatchObject({ added: 0, unchanged: 1 });
    expect(await outbox()).toEqual([["report.published", mondayId]]);
    const lines = await listActivity(org.id, ["report"]);
    expect(lines.map((l) => [l.actor, l.action, l.subject.label, l.detail])).toEqual([
      ["cli", "imported", "1 report", { added: 1, unchanged: 0, replaced: 0 }],
    ]);
  });

  it("a replacement is announced once as report.updated, and its report gets a line", async () => {
    const corrected = { ...monday, report: content("Monday, corrected") };
    await expect(importFile([corrected], true)).resolves.toMatchObject({ replaced: 1 });
    await expect(importFile([corrected], true)).resolves.toMatchObject({ replaced: 0, unchanged: 1 });
    expect(await outbox()).toEqual([
      ["report.published", mondayId],
      ["report.updated", mondayId],
    ]);
    const lines = await listActivity(org.id, ["report"]);
    expect(lines.slice(0, 2).map((l) => [l.action, l.subject.id, l.subject.label])).toEqual(
      expect.arrayContaining([
        ["imported", null, "1 report"],
        ["replaced", mondayId, "org report of 2026-11-23T18:00:00.000Z"],
      ]),
    );
  });

  it("a deletion is announced once as report.deleted with its summary, masked as the API serves it", async () => {
    const [added] = (
      await importFile([{ scope: "org", generated_at: "2026-11-24T18:00:00Z", report: content("Ask @piahandle") }])
    ).reports;
    await runCommand("reports.delete", { reportId: added!.id });
    await expect(runCommand("reports.delete", { reportId: added!.id })).rejects.toThrow(/No report with id/);
    const events = await outbox();
    expect(events.filter(([type]) => type === "report.deleted")).toEqual([["report.deleted", added!.id]]);
    const lines = await listActivity(org.id, ["report"]);
    expect([lines[0]!.action, lines[0]!.subject.id, lines[0]!.actor]).toEqual(["deleted", added!.id, "cli"]);

    // Expanded by the relay into one message per event, each to the endpoint: the deleted report's data was kept.
    while ((await relayOutbox(8)) > 0);
    const db = await getDb();
    const messages = await db.webhookMessage.findMany({
      where: { organizationId: org.id },
      select: { type: true, data: true, deliveries: { select: { endpointId: true } } },
      orderBy: { createdAt: "asc" },
    });
    const deleted = messages.filter((m) => m.type === "report.deleted");
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.deliveries).toEqual([{ endpointId }]);
    const data = deleted[0]!.data as { report: Record<string, unknown> };
    expect(Object.keys(data)).toEqual(["report"]);
    expect(Object.keys(data.report)).toEqual(["id", "scope", "scope_target_id", "generated_at", "headline"]);
    expect(data.report).toMatchObject({ id: added!.id, scope: "org", generated_at: "2026-11-24T18:00:00.000Z" });
    expect(data.report.headline).not.toContain("piahandle");
    expect(messages.filter((m) => m.type === "report.updated").map((m) => m.data)).toEqual([
      {
        report: expect.objectContaining({ id: mondayId, headline: "Monday, corrected" }),
        url: `/api/v1/reports/${mondayId}`,
      },
    ]);
  });

  it("an endpoint not subscribed to an event gets no row for it", async () => {
    const db = await getDb();
    await db.webhookEndpoint.update({ where: { id: endpointId }, data: { events: ["report.published"] } });
    const before = (await outbox()).length;
    await importFile([{ ...monday, report: content("Monday, again") }], true);
    await runCommand("reports.delete", { reportId: mondayId });
    expect((await outbox()).length).toBe(before);
  });
});
