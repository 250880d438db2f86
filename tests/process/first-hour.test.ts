import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/chromium";
import { operatorEnv, runCli } from "../helpers/cli";
import { withDatabase } from "../helpers/seeded-postgres";
import { startServer, tempDataDir, type RunningServer } from "../helpers/server";
import { messageText, startSmtpServer, type RunningSmtpServer } from "../helpers/smtp-server";

// The first hour of a real team (issue 36), as one journey on each kind of database an operator runs: an empty
// database, `db migrate`, `orgs create`, the founder's link opened in Chromium, a password set, the roster imported from
// a CSV in Settings → Team, a lead invited (the message caught by a real SMTP server, its link followed), the lead's
// key reading the roster with no contact details, the team's first day written (Your day and a CSV) and its
// organization report read by that key (issue 38), and a deactivation refusing that person's next request.

if (!existsSync(CHROMIUM_PATH) && process.env.CI === "true")
  throw new Error(`CI=true requires Chromium at ${CHROMIUM_PATH} for the first-hour journey.`);

const directUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
const poolerUrl = process.env.SUNDOWN_TEST_POOLER_URL;
if (process.env.CI === "true" && !(directUrl && poolerUrl))
  throw new Error("CI=true requires SUNDOWN_TEST_DATABASE_URL and SUNDOWN_TEST_POOLER_URL for the first-hour journey.");

const PASSWORDS = { founder: "amber harbor kettle ninety", lead: "quiet orchard pencil seventy" };
const ROSTER_CONTACTS = ["ines.costa@first-hour.example", "@ines-c", "+351 912 345 678", "+44 7700 900123"];

/** A database for the run: a new, empty PostgreSQL database (directly or through the pooler), or the embedded one. */
interface Target {
  label: string;
  /** The server's and the CLI's environment for this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function postgresTarget(label: string, serverUrl: string, adminUrl: string): Promise<Target> {
  const name = `first_hour_${label}_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  return {
    label,
    env: { DATABASE_URL: withDatabase(serverUrl, name) },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

const TARGETS: { label: string; runs: boolean; make: () => Promise<Target> }[] = [
  {
    label: "the embedded database",
    runs: true,
    make: async () => ({ label: "embedded", env: { SUNDOWN_DATA_DIR: tempDataDir() }, drop: async () => {} }),
  },
  {
    label: "PostgreSQL, directly",
    runs: Boolean(directUrl),
    make: () => postgresTarget("direct", directUrl!, directUrl!),
  },
  {
    label: "PostgreSQL through PgBouncer in transaction mode",
    runs: Boolean(directUrl && poolerUrl),
    make: () => postgresTarget("pooled", poolerUrl!, directUrl!),
  },
];

async function cli(target: Target, server: RunningServer, args: string[]) {
  const result = await runCli(args, operatorEnv({ ...target.env, SUNDOWN_DEMO: "", SUNDOWN_URL: server.url }));
  expect(result.code, `sundown ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** Opens a one-time link in a fresh browser session, sets a password there and lands signed in. */
async function completeLink(browser: Browser, link: string, password: string, name?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByRole("heading", { level: 1, name: /^Join / }).waitFor();
  if (name) await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Join and sign in" }).click();
  await page.waitForURL(/\/settings\/api-keys$/);
  return page;
}

describe.skipIf(!existsSync(CHROMIUM_PATH))("the first hour of a team", () => {
  let browser: Browser;
  let smtp: RunningSmtpServer;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await browser?.close();
    await smtp?.stop();
  });

  for (const { label, runs, make } of TARGETS) {
    describe.runIf(runs)(`on ${label}`, () => {
      let target: Target;
      let server: RunningServer;

      beforeAll(async () => {
        target = await make();
        if (target.env.DATABASE_URL) {
          // An empty database first gets its tables; the embedded one is migrated by the server's first start.
          const migrated = await runCli(["db", "migrate"], operatorEnv({ ...target.env }));
          expect(migrated.code, migrated.stderr).toBe(0);
        }
        server = await startServer({ ...target.env, SUNDOWN_DEMO: "", SMTP_URL: smtp.url });
      });
      afterAll(async () => {
        await server?.stop();
        await target?.drop();
      });

      it("goes from an empty database to an agent reading the roster, and a deactivation ends a session", async () => {
        const started = Date.now();
        const slug = `first-hour-${target.label}`;
        const founderEmail = `founder@${slug}.example`;
        const leadEmail = `lead@${slug}.example`;

        // The operator creates the organization; the link is printed once.
        const created = JSON.parse(
          await cli(target, server, [
            "orgs",
            "create",
            "--slug",
            slug,
            "--name",
            "First Hour Co",
            "--founder-email",
            founderEmail,
            "--founder-name",
            "Rosa Lima",
            "--json",
          ]),
        ) as { link: string };
        expect(created.link.startsWith(`${server.url}/invite/`)).toBe(true);

        // The founder opens it, sets a password and is signed in.
        const founder = await completeLink(browser, created.link, PASSWORDS.founder);
        await founder.getByText("Signed in as Rosa Lima").waitFor();

        // Settings → Team: the roster from a CSV, previewed, then imported.
        await founder.goto(`${server.url}/settings/team`);
        const importSection = founder.getByRole("region", { name: "Import from a file" });
        const csv = [
          "name,email,role,department,external,active,chat,phone,phone",
          `Inês Costa,${ROSTER_CONTACTS[0]},member,Design,false,true,${ROSTER_CONTACTS[1]},${ROSTER_CONTACTS[2]},${ROSTER_CONTACTS[3]}`,
          `Omar Haddad,omar@${slug}.example,member,Engineering,false,true,,,`,
          `Kai Becker,kai@${slug}.example,member,Engineering,true,true,,,`,
        ].join("\n");
        await importSection
          .getByLabel("Roster file")
          .setInputFiles({ name: "roster.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
        await importSection.getByRole("button", { name: "Preview" }).click();
        await importSection.getByText("Nothing is written until you import.").waitFor();
        await importSection.getByRole("button", { name: "Import" }).click();
        await importSection.getByRole("status").filter({ hasText: "Imported: 3 added" }).waitFor();

        // The founder invites a lead; the message arrives, and its link is the one the page shows.
        await founder.goto(`${server.url}/settings/team/invitations`);
        await founder.getByLabel("Email").fill(leadEmail);
        await founder.getByLabel("Role").selectOption("lead");
        await founder.getByRole("button", { name: "Make link" }).click();
        const shown = await founder.getByLabel(`Link for ${leadEmail} (lead)`).inputValue();
        const mail = messageText(await smtp.messageTo(leadEmail));
        expect(mail).toContain(shown);
        expect(mail).toMatch(/expires/i);

        // The lead follows the mailed link, signs in and creates a key that reads the roster.
        const lead = await completeLink(browser, shown, PASSWORDS.lead, "Lena Park");
        await lead.getByLabel("Name").fill("roster agent");
        await lead.getByRole("checkbox", { name: /^team:read/ }).check();
        await lead.getByRole("checkbox", { name: /^reports:read/ }).check();
        await lead.getByRole("button", { name: "Create key" }).click();
        const secretField = lead.getByRole("region", { name: "Create a key" }).getByLabel(/^New API key/);
        await secretField.waitFor();
        const key = await secretField.inputValue();
        expect(key).toMatch(/^sdn_sk_/);

        const team = await fetch(`${server.url}/api/v1/team`, { headers: { Authorization: `Bearer ${key}` } });
        expect(team.status).toBe(200);
        const body = await team.text();
        const names = (JSON.parse(body) as { members: { name: string }[] }).members.map((m) => m.name);
        expect(names).toEqual(
          expect.arrayContaining(["Rosa Lima", "Lena Park", "Inês Costa", "Omar Haddad", "Kai Becker"]),
        );
        for (const contact of [founderEmail, leadEmail, ...ROSTER_CONTACTS]) expect(body).not.toContain(contact);
        const minutes = (Date.now() - started) / 60_000;
        console.info(`first hour on ${label}: empty database to the first keyed read in ${minutes.toFixed(1)} min`);

        // The team writes its first day: the lead on Your day, Omar through a tool's CSV. The operator has the day's
        // reports written now (the cutoff would, at 18:00), and the lead's agent reads the organization's report.
        const today = new Date().toISOString().slice(0, 10); // the organization counts its days in UTC
        // The founder makes every day a working day and moves the cutoff to 23:59, so the journey's day has reports
        // whatever day it runs on.
        await founder.goto(`${server.url}/settings/organization`);
        const schedule = founder.getByRole("region", { name: "When reports are written" });
        await schedule.getByLabel("Cutoff").fill("23:59");
        for (const weekday of ["Saturday", "Sunday"]) await schedule.getByLabel(weekday).check();
        await schedule.getByRole("button", { name: "Save" }).click();
        await schedule.getByRole("status").filter({ hasText: "Saved." }).waitFor();
        await lead.goto(`${server.url}/day`);
        await lead.getByLabel("Shipped item 1", { exact: true }).fill("Onboarding checklist");
        await lead.getByLabel("Blocker 1", { exact: true }).fill("Waiting on the SSO certificate");
        await lead.getByRole("button", { name: "Save today’s update" }).click();
        await lead.getByText("Saved: today’s update is written.").waitFor();
        const day = [
          "date,email,section,text",
          `${today},omar@${slug}.example,shipped,Billing export`,
          `${today},omar@${slug}.example,slipping,Invoice rounding`,
        ].join("\n");
        const dayFile = path.join(tempDataDir(), "day.csv");
        writeFileSync(dayFile, day);
        await cli(target, server, ["updates", "import", dayFile, "--org", slug]);
        await cli(target, server, ["reports", "generate", "--org", slug, "--date", today]);

        const listed = await fetch(`${server.url}/api/v1/reports?scope=org`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        expect(listed.status).toBe(200);
        const [summary] = ((await listed.json()) as { reports: { id: string; headline: string }[] }).reports;
        // Who is silent depends on the hour: people who joined after the day's cutoff (a run at 23:59) are not.
        expect(summary?.headline).toMatch(/^First Hour Co: 2 shipped, 1 slipping, 1 blocker(, [12] silent)?$/);
        const read = await fetch(`${server.url}/api/v1/reports/${summary!.id}`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        const { report } = (await read.json()) as { report: Record<string, { owner?: string; member?: string }[]> };
        expect(report.shipped!.map((item) => item.owner).sort()).toEqual(["Lena Park", "Omar Haddad"]);
        expect(report.blockers!.map((item) => item.owner)).toEqual(["Lena Park"]);
        // Those who wrote are never silent, nor Kai, who is external; the founder and Inês wrote nothing.
        const silent = report.silent!.map((item) => item.member);
        for (const name of silent) expect(["Inês Costa", "Rosa Lima"]).toContain(name);
        expect(summary?.headline.endsWith(silent.length ? `, ${silent.length} silent` : "1 blocker")).toBe(true);

        // The founder deactivates the lead (revoking the key they made, as preselected): the lead's next page load and
        // the key's next read are refused.
        await founder.goto(`${server.url}/settings/team`);
        await founder.getByRole("link", { name: "Edit Lena Park" }).click();
        await founder.getByRole("button", { name: "Deactivate Lena Park" }).click();
        await founder.getByRole("button", { name: "Reactivate Lena Park" }).waitFor();

        await lead.goto(`${server.url}/settings/api-keys`);
        await expect.poll(() => lead.url()).toMatch(/\/signin/);
        const after = await fetch(`${server.url}/api/v1/team`, { headers: { Authorization: `Bearer ${key}` } });
        expect(after.status).toBe(401);
      });
    });
  }
});
