import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { listActivity } from "@/lib/data/activity";
import { reportRead } from "@/lib/data/reports";
import { getDb } from "@/lib/db";
import { removeReport, UPLOAD_WORDING, uploadReports } from "@/lib/settings/report-actions";
import { form } from "../helpers/settings-forms";
import { createSettingsOrg, type SettingsOrg } from "../helpers/settings-org";

// Settings → Reports' actions, called as the page calls them: the signed-in user as the database knows them (or
// null) and the form's data. In organizations of this file's own (one for the changes, one "other"), each with one
// webhook endpoint subscribed to every report event, so the outbox shows what was announced.

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release" }],
  silent: [],
  slipping: [],
  blockers: [],
});

const REFUSED_MEMBER = "Only founders and leads can manage reports.";
const NOT_FOUND = "This report does not exist in your organization.";

let org: SettingsOrg;
let other: SettingsOrg;
let otherReportId: string;

beforeAll(async () => {
  org = await createSettingsOrg("reports-page");
  other = await createSettingsOrg("reports-other");
  const db = await getDb();
  for (const o of [org, other]) {
    await db.webhookEndpoint.create({
      data: {
        organizationId: o.id,
        url: "https://hooks.example.invalid/sundown",
        events: ["report.published", "report.updated", "report.deleted"],
        secretSealed: "sealed",
      },
      select: { id: true },
    });
  }
  const imported = await runCommand("reports.import", {
    org: other.slug,
    reports: [{ scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Other's") }],
  });
  otherReportId = imported.reports[0]!.id;
});

afterAll(async () => {
  await org?.remove();
  await other?.remove();
});

/** A form as the page posts it: the import file and the replace checkbox. */
function upload(reports: unknown, { replace = false, name = "reports.json" } = {}): FormData {
  const data = new FormData();
  data.append("intent", "preview");
  const text = typeof reports === "string" ? reports : JSON.stringify(reports, null, 2);
  data.append("file", new File([text], name, { type: "application/json" }));
  if (replace) data.append("replace", "on");
  return data;
}

/** Everything an import or deletion writes in an organization: reports, trail lines, outbox rows. */
async function footprint(organizationId: string) {
  const db = await getDb();
  const [reports, trail, outbox] = await Promise.all([
    db.report.findMany({
      where: { organizationId },
      select: { id: true, headline: true, content: true },
      orderBy: { id: "asc" },
    }),
    db.activityEvent.count({ where: { organizationId } }),
    db.webhookOutbox.findMany({
      where: { organizationId },
      select: { type: true, subjectIds: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  return { reports, trail, outbox };
}

async function previewed(state: Awaited<ReturnType<typeof uploadReports.forUser>>) {
  if (state.status !== "previewed") throw new Error(`expected a preview, got ${JSON.stringify(state)}`);
  return state;
}

const week = (headline = "Day") =>
  [20, 21, 22].map((day) => ({
    scope: "org",
    generated_at: `2026-11-${day}T18:00:00Z`,
    report: content(`${headline} ${day}`),
  }));

describe("the upload's preview", () => {
  it("says what an import would do and writes nothing", async () => {
    const before = await footprint(org.id);
    const preview = await previewed(await uploadReports.forUser(org.lead, upload(week())));
    expect(preview).toMatchObject({ ok: true, added: 3, unchanged: 0, replaced: 0, replace: false });
    expect(await footprint(org.id)).toEqual(before);
  });

  it("names every problem with its place, in the CLI's words, and writes nothing", async () => {
    const bad = [
      ...week(),
      { scope: "member", generated_at: "2026-11-23T18:00:00Z", report: content("x") },
      { scope: "org", generated_at: "2026-02-30T18:00:00Z", report: content("y") },
    ];
    const before = await footprint(org.id);
    const preview = await previewed(await uploadReports.forUser(org.founder, upload(bad)));
    if (preview.ok) throw new Error("expected problems");
    const cli = await runCommand("reports.import", { org: org.slug, reports: bad }).catch((e: Error) => e.message);
    // The same problems, each at its place; only the headline's subject differs ("The file", "The import file").
    expect(preview.problems.slice(1)).toEqual((cli as string).split("\n").slice(1));
    expect(preview.problems[0]).toBe("The file is invalid (2 problems); nothing was imported.");
    expect(preview.problems).toContain(
      '  reports[3].scope_target_id: required for scope "member": the id of a member of the organization',
    );
    expect(preview.problems.some((line) => line.startsWith("  reports[4].generated_at: "))).toBe(true);
    expect(await footprint(org.id)).toEqual(before);
  });

  it("refuses what is not JSON with its line and column, and no file at all", async () => {
    const preview = await previewed(await uploadReports.forUser(org.lead, upload('[\n  {"scope": }\n]')));
    expect(preview).toMatchObject({
      ok: false,
      problems: [
        expect.stringMatching(/is invalid \(1 problem\)/),
        expect.stringMatching(/^ {2}not valid JSON at line \d+, column \d+: /),
      ],
    });
    expect(await uploadReports.forUser(org.lead, form({ replace: "on" }))).toEqual({
      status: "error",
      message: "Choose an import file (JSON) to preview.",
    });
  });
});

describe("the confirmed import", () => {
  it("writes every report, with its line in the trail by the signed-in user, and announces each", async () => {
    const preview = await previewed(await uploadReports.forUser(org.lead, upload(week())));
    if (!preview.ok) throw new Error("expected counts");
    const done = await uploadReports.forUser(
      org.lead,
      form({ intent: "import", content: preview.content, replace: "false", fileName: "reports.json" }),
    );
    expect(done).toEqual({ status: "imported", fileName: "reports.json", added: 3, unchanged: 0, replaced: 0 });
    const after = await footprint(org.id);
    expect(after.reports.map((r) => r.headline).sort()).toEqual(["Day 20", "Day 21", "Day 22"]);
    expect(after.outbox.filter((e) => e.type === "report.published").flatMap((e) => e.subjectIds)).toHaveLength(3);
    const [line] = await listActivity(org.id, ["report"]);
    expect(line).toMatchObject({
      actor: "Lee Lead",
      action: "imported",
      detail: { added: 3, unchanged: 0, replaced: 0 },
    });

    // The same file again: nothing to import, nothing written or announced.
    const again = await previewed(await uploadReports.forUser(org.lead, upload(week())));
    expect(again).toMatchObject({ ok: true, added: 0, unchanged: 3, replaced: 0 });
    await expect(
      uploadReports.forUser(
        org.lead,
        form({ intent: "import", content: preview.content, replace: "false", fileName: "reports.json" }),
      ),
    ).resolves.toEqual({ status: "imported", fileName: "reports.json", added: 0, unchanged: 3, replaced: 0 });
    expect(await footprint(org.id)).toEqual(after);
  });

  it("writes nothing when one report of the file is refused (all or nothing)", async () => {
    const before = await footprint(org.id);
    const file = JSON.stringify([
      { scope: "org", generated_at: "2026-11-24T18:00:00Z", report: content("Fine") },
      // A member of the other organization: checked against this one's members, inside the import's transaction.
      {
        scope: "member",
        scope_target_id: other.member.memberId,
        generated_at: "2026-11-24T18:00:00Z",
        report: content("No"),
      },
    ]);
    const refused = await uploadReports.forUser(
      org.founder,
      form({ intent: "import", content: file, replace: "false", fileName: "reports.json" }),
    );
    expect(refused).toEqual({
      status: "error",
      message: `The file is invalid (1 problem); nothing was imported.\n  reports[1].scope_target_id: no member with this id in organization ${org.slug}`,
    });
    expect(await footprint(org.id)).toEqual(before);
  });

  it("refuses a report that differs unless replacing, then replaces it once and announces it once", async () => {
    const corrected = week();
    corrected[1]!.report = content("Day 21, corrected");
    const conflict = await previewed(await uploadReports.forUser(org.founder, upload(corrected)));
    if (conflict.ok) throw new Error("expected a conflict");
    expect(conflict.problems[0]).toBe("The file conflicts with stored reports (1 problem); nothing was imported.");
    expect(conflict.problems.at(-1)).toBe(`To update the stored reports that differ, ${UPLOAD_WORDING.replaceHint}.`);

    const preview = await previewed(await uploadReports.forUser(org.founder, upload(corrected, { replace: true })));
    if (!preview.ok) throw new Error("expected counts");
    expect(preview).toMatchObject({ added: 0, unchanged: 2, replaced: 1, replace: true });
    const confirm = () =>
      uploadReports.forUser(
        org.founder,
        form({ intent: "import", content: preview.content, replace: "true", fileName: "reports.json" }),
      );
    await expect(confirm()).resolves.toEqual({
      status: "imported",
      fileName: "reports.json",
      added: 0,
      unchanged: 2,
      replaced: 1,
    });
    await expect(confirm()).resolves.toEqual({
      status: "imported",
      fileName: "reports.json",
      added: 0,
      unchanged: 3,
      replaced: 0,
    });
    const { reports, outbox } = await footprint(org.id);
    const replaced = reports.find((r) => r.headline === "Day 21, corrected")!;
    expect(outbox.filter((e) => e.type === "report.updated")).toEqual([
      { type: "report.updated", subjectIds: [replaced.id] },
    ]);
    const lines = await listActivity(org.id, ["report"]);
    expect(lines.filter((l) => l.action === "replaced").map((l) => [l.actor, l.subject.id])).toEqual([
      ["Fran Founder", replaced.id],
    ]);
  });
});

describe("deleting a report", () => {
  it("deletes it for a founder or lead: gone from the API's read, in the trail, announced once", async () => {
    const [first, second] = (await footprint(org.id)).reports;
    for (const [who, id] of [
      [org.founder, first!.id],
      [org.lead, second!.id],
    ] as const) {
      await expect(removeReport.forUser(who, form({ reportId: id.toUpperCase() }))).resolves.toEqual({
        status: "deleted",
        reportId: id,
      });
      await expect(reportRead.with(id).run(org.id)).rejects.toMatchObject({ code: "not_found" });
      const [line] = await listActivity(org.id, ["report"]);
      expect(line).toMatchObject({ actor: who.name, action: "deleted", subject: { id } });
      // Gone already: a second post finds nothing, and nothing more is announced.
      await expect(removeReport.forUser(who, form({ reportId: id }))).resolves.toEqual({
        status: "error",
        message: NOT_FOUND,
      });
    }
    const { outbox } = await footprint(org.id);
    expect(outbox.filter((e) => e.type === "report.deleted").map((e) => e.subjectIds)).toEqual([
      [first!.id],
      [second!.id],
    ]);
  });

  it("treats another organization's report, and what is not an id, as one it does not have", async () => {
    const before = await footprint(other.id);
    for (const reportId of [otherReportId, "not-an-id", ""]) {
      await expect(removeReport.forUser(org.founder, form({ reportId }))).resolves.toEqual({
        status: "error",
        message: NOT_FOUND,
      });
    }
    expect(await footprint(other.id)).toEqual(before);
  });
});

describe("who may", () => {
  it("refuses a member and a signed-out visitor every action, changing nothing", async () => {
    const [report] = (await footprint(org.id)).reports;
    const before = await footprint(org.id);
    const content = JSON.stringify([
      {
        scope: "org",
        generated_at: "2026-11-28T18:00:00Z",
        report: { headline: "m", kpi_status: [], shipped: [], silent: [], slipping: [], blockers: [] },
      },
    ]);
    for (const who of [org.member, null]) {
      const message = who ? REFUSED_MEMBER : expect.stringMatching(/Sign in again to manage reports/);
      await expect(removeReport.forUser(who, form({ reportId: report!.id }))).resolves.toEqual({
        status: "error",
        message,
      });
      await expect(uploadReports.forUser(who, upload(JSON.parse(content)))).resolves.toEqual({
        status: "error",
        message,
      });
      await expect(
        uploadReports.forUser(who, form({ intent: "import", content, replace: "false", fileName: "reports.json" })),
      ).resolves.toEqual({
        status: "error",
        message,
      });
    }
    expect(await footprint(org.id)).toEqual(before);
  });
});
