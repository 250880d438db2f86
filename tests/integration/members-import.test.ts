import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listActivity } from "@/lib/data/activity";
import { readCsvRows } from "@/lib/data/csv-reader";
import { importMembers, MemberImportError, type MemberImportProblem } from "@/lib/data/member-import";
import { listRoster } from "@/lib/data/members";
import { getDb } from "@/lib/db";
import { importRoster } from "@/lib/settings/team-actions";
import { form } from "../helpers/settings-forms";
import { createTeamOrg, type TeamOrg } from "../helpers/team-org";

// The roster import (lib/data/member-import.ts) that `sundown members import` and Settings → Team's upload share:
// matched by e-mail, idempotent, all or nothing with every problem named by row and field.

const CLI = { label: "cli" } as const;
let org: TeamOrg;

beforeAll(async () => {
  await getDb();
});

beforeEach(async () => {
  org = await createTeamOrg();
});

const csv = (...rows: string[]) => ["name,email,role,department,external,active,chat,chat,phone", ...rows].join("\n");

const FILE = csv(
  "Ana Lima,ana@team.example,member,Design,false,true,@ana,U0ANA42,+44 20 7946 0958",
  '"Bruno ""Bo"" Reis",bruno@team.example,lead,"Sales, EMEA",true,,,,',
);

const run = (text: string, options = {}, authority: "operator" | "lead" | "founder" = "operator") =>
  importMembers(org.id, CLI, authority, { text, format: text.trimStart().startsWith("[") ? "json" : "csv" }, options);

async function problemsOf(promise: Promise<unknown>): Promise<MemberImportProblem[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemberImportError);
  return (error as MemberImportError).problems;
}

describe("the roster import", () => {
  it("adds the file's people, and the same file again changes nothing", async () => {
    const first = await run(FILE);
    expect(first).toMatchObject({ added: 2, updated: 0, unchanged: 0, deactivated: 0 });
    const roster = await listRoster(org.id);
    expect(roster.find((m) => m.email === "ana@team.example")).toMatchObject({
      name: "Ana Lima",
      chats: ["@ana", "U0ANA42"],
      phones: ["+44 20 7946 0958"],
      department: "Design",
    });
    expect(roster.find((m) => m.email === "bruno@team.example")).toMatchObject({
      name: 'Bruno "Bo" Reis',
      role: "lead",
      department: "Sales, EMEA",
      external: true,
      active: true,
    });
    const trail = await listActivity(org.id, ["member", "roster"]);
    const again = await run(FILE);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 2, deactivated: 0 });
    expect(await listRoster(org.id)).toEqual(roster);
    expect(await listActivity(org.id, ["member", "roster"])).toEqual(trail);
  });

  it("matches people by e-mail whatever its case, and updates only the changed row", async () => {
    await run(FILE);
    const changed = csv(
      "Ana Lima,ANA@team.example,lead,Design,false,true,@ana,U0ANA42,+44 20 7946 0958",
      '"Bruno ""Bo"" Reis",bruno@team.example,lead,"Sales, EMEA",true,,,,',
    );
    const result = await run(changed);
    expect(result).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
    expect(result.people.find((p) => p.change === "updated")).toMatchObject({ row: "row 2", name: "Ana Lima" });
    const ana = (await listRoster(org.id)).find((m) => m.name === "Ana Lima");
    expect(ana).toMatchObject({ role: "lead", email: "ANA@team.example" });
  });

  it("refuses the whole file, naming every problem with its row and field, and writes nothing", async () => {
    const before = await listRoster(org.id);
    const problems = await problemsOf(
      run(
        csv(
          "Ana Lima,ana@team.example,member,Design,false,true,@ana,,+44 20 7946 0958",
          ",not-an-address,boss,,maybe,,,,12345",
          "Ana Again,Ana@Team.example,member,,,,,,",
        ),
      ),
    );
    expect(problems).toEqual([
      { row: "row 3", field: "external", message: "must be true or false" },
      { row: "row 3", field: "name", message: "enter the person's name" },
      { row: "row 3", field: "email", message: "must be an e-mail address such as ana@example.com" },
      { row: "row 3", field: "role", message: "must be founder, lead, member" },
      {
        row: "row 3",
        field: "phone",
        message: "must be a phone number with its country code, such as +44 20 7946 0958",
      },
      { row: "row 4", field: "email", message: "the same address as row 2" },
    ]);
    expect(await listRoster(org.id)).toEqual(before);
  });

  it("says why a file is not readable as CSV as the updates import does: bounded, invisible characters escaped", async () => {
    const unreadable = `name,email,role\n${"x".repeat(1_000)}"\u202e,a@team.example,member\n`;
    const read = readCsvRows(unreadable) as { problem: string };
    const roster = await listRoster(org.id);
    expect(read.problem).toMatch(/^not readable as CSV: Invalid Opening Quote/);
    expect(await problemsOf(run(unreadable))).toEqual([{ row: "file", message: read.problem }]);
    expect(await listRoster(org.id)).toEqual(roster);
  });

  it("names unknown and missing columns, and JSON entries by their index", async () => {
    const columns = await problemsOf(run("name,mail,role,colour\nAna,ana@team.example,member,red"));
    expect(columns).toEqual([
      { row: "row 1", field: '"mail"', message: expect.stringMatching(/^unknown column/) },
      { row: "row 1", field: '"colour"', message: expect.stringMatching(/^unknown column/) },
      { row: "row 1", field: "email", message: "this column is required" },
    ]);
    const json = await problemsOf(
      run(JSON.stringify([{ name: "Ana", email: "ana@team.example", role: "member", phone: ["+1 555"] }])),
    );
    expect(json).toEqual([{ row: "members[0]", field: "phone", message: expect.stringMatching(/country code/) }]);
  });

  it("takes JSON with the same fields", async () => {
    const result = await run(
      JSON.stringify([
        { name: "Ana Lima", email: "ana@team.example", role: "member", chat: "@ana", phone: ["+44 20 7946 0958"] },
        { name: "Bo", email: "bo@team.example", role: "lead", external: true, active: false },
      ]),
    );
    expect(result).toMatchObject({ added: 2 });
    expect((await listRoster(org.id)).find((m) => m.name === "Bo")).toMatchObject({ external: true, active: false });
  });

  it("writes nothing on a dry run, and says what it would do", async () => {
    const before = await listRoster(org.id);
    const db = await getDb();
    const outbox = await db.webhookOutbox.count();
    const file = `${FILE}\nFatima Founder,${org.founder.email},founder,,false,true,,,`;
    const result = await run(file, { dryRun: true, deactivateMissing: true });
    expect(result).toMatchObject({ added: 2, unchanged: 1, deactivated: 2, dryRun: true });
    expect(await listRoster(org.id)).toEqual(before);
    expect(await listActivity(org.id, ["member", "roster"])).toEqual([]);
    expect(await db.webhookOutbox.count()).toBe(outbox);
  });

  it("deactivates the people missing from the file only when asked, never deleting them", async () => {
    const keep = csv(`Fatima Founder,${org.founder.email},founder,,false,true,,,`);
    expect(await run(keep)).toMatchObject({ unchanged: 1, deactivated: 0 });
    const result = await run(keep, { deactivateMissing: true });
    expect(result).toMatchObject({ unchanged: 1, deactivated: 2 });
    const roster = await listRoster(org.id);
    expect(roster.map((m) => [m.name, m.active])).toEqual([
      ["Fatima Founder", true],
      ["Leo Lead", false],
      ["Mia Member", false],
    ]);
  });

  it("keeps the role rules: a lead's file adds or changes no founder, and no file leaves no active founder", async () => {
    const lead = await problemsOf(
      run(
        csv(
          "New Founder,nf@team.example,founder,,,,,,",
          `Fatima Founder,${org.founder.email},founder,Board,false,true,,,`,
        ),
        {},
        "lead",
      ),
    );
    expect(lead).toEqual([
      { row: "row 2", field: "role", message: "Only founders can grant the founder role." },
      { row: "row 3", field: "role", message: "Only founders can change a founder." },
    ]);
    // A lead's file may name a founder as they are.
    expect(await run(csv(`Fatima Founder,${org.founder.email},founder,,false,true,,,`), {}, "lead")).toMatchObject({
      unchanged: 1,
    });
    const missingFounder = await problemsOf(
      run(csv("Ana,ana@team.example,member,,,,,,"), { deactivateMissing: true }, "lead"),
    );
    expect(missingFounder).toEqual([
      { row: "file", field: "email", message: expect.stringMatching(/Fatima Founder, a founder, is missing/) },
    ]);
    const lastFounder = await problemsOf(run(csv(`Fatima Founder,${org.founder.email},member,,false,true,,,`)));
    expect(lastFounder).toEqual([
      { row: "file", field: "role", message: expect.stringMatching(/without an active founder/) },
    ]);
    expect((await listRoster(org.id)).find((m) => m.name === "Fatima Founder")?.role).toBe("founder");
  });
});

describe("Settings → Team's upload", () => {
  it("previews without writing, then imports what was previewed on confirmation", async () => {
    const file = new File([FILE], "roster.csv", { type: "text/csv" });
    const data = form({ step: "preview" });
    data.append("file", file);
    const preview = await importRoster.forUser(org.lead, data);
    expect(preview).toMatchObject({ status: "preview", result: { added: 2, dryRun: true }, content: FILE });
    expect(await listRoster(org.id)).toHaveLength(3);
    const confirmed = await importRoster.forUser(
      org.lead,
      form({ step: "confirm", content: FILE, fileName: "roster.csv" }),
    );
    expect(confirmed).toMatchObject({ status: "imported", result: { added: 2, dryRun: false } });
    expect(await listRoster(org.id)).toHaveLength(5);
  });

  it("answers a file's problems with their rows and fields", async () => {
    const state = await importRoster.forUser(
      org.founder,
      form({ step: "confirm", content: "name,email,role\nAna,ana@team.example,boss", fileName: "r.csv" }),
    );
    expect(state).toEqual({
      status: "invalid",
      problems: [{ row: "row 2", field: "role", message: "must be founder, lead, member" }],
    });
  });
});
