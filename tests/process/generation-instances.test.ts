import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeUpdates, type UpdateContent } from "@/lib/data/updates";
import { installDbHandle, openPostgres, type DbHandle } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { hasPgBouncer, startPgBouncer, type ThrowawayPgBouncer } from "../helpers/pgbouncer";
import { createSeededDatabase, type SeededDatabase } from "../helpers/seeded-postgres";
import { startServer, type RunningServer } from "../helpers/server";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// Generation as deployed: two `next start` instances on one PostgreSQL through a transaction-mode PgBouncer, each
// running its generation loop. Two weeks of updates were written while no instance ran (a team backfilling, or an
// outage): the instances catch up at start, racing for the same days, and each day is generated once — one report
// per identity, one report.published per report at the receiver.

const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
const ENABLED = Boolean(adminUrl);
if (process.env.CI === "true" && !ENABLED) throw new Error("CI=true requires SUNDOWN_TEST_DATABASE_URL.");
if (ENABLED && !hasPgBouncer()) throw new Error("The generation instances test needs pgbouncer.");

const SECRET = "generation-instances-secret-generation";
const SLOW = 180_000;
// Two working weeks in Kolkata (UTC+5:30), long past: Monday 9 to Friday 20 November 2026.
const DAYS = ["09", "10", "11", "12", "13", "16", "17", "18", "19", "20"].map((d) => `2026-11-${d}`);
const PEOPLE = 40;

let database: SeededDatabase;
let pgbouncer: ThrowawayPgBouncer;
let db: DbHandle;
let receiver: WebhookReceiver;
const running: RunningServer[] = [];

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!ENABLED)("generation from two instances on one PostgreSQL, through PgBouncer", () => {
  beforeAll(async () => {
    database = await createSeededDatabase(adminUrl!, "sundown_generation");
    pgbouncer = await startPgBouncer(adminUrl!);
    db = openPostgres(database.url, 4);
    installDbHandle(db);
    process.env.NEXTAUTH_SECRET = SECRET;
    process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
    resetEnvCache();
  }, SLOW);

  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    await receiver?.close();
    await db?.close();
    await pgbouncer?.stop();
    await database?.drop();
    delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
    resetEnvCache();
  });

  it(
    "catch up on the days missed, each generated once: one report per identity, one report.published each",
    async () => {
      const client = db.client;
      const org = await client.organization.create({
        data: { slug: `kolkata-${randomUUID().slice(0, 8)}`, name: "Kolkata Works", timeZone: "Asia/Kolkata" },
        select: { id: true },
      });
      const members: { id: string }[] = [];
      for (let i = 0; i < PEOPLE; i++) {
        members.push(
          await client.member.create({
            data: {
              organizationId: org.id,
              name: `Person ${String(i).padStart(2, "0")}`,
              role: i === 0 ? "lead" : "member",
              department: "Ops",
              createdAt: new Date("2026-10-01T00:00:00Z"),
            },
            select: { id: true },
          }),
        );
      }
      receiver = await startWebhookReceiver();
      await addWebhookEndpoint({
        organizationId: org.id,
        url: receiver.url,
        events: ["report.published", "report.updated"],
        actor: { label: "test" },
      });
      // Everyone writes every other day, by turns: each day has writers and silent people.
      const content = (title: string): UpdateContent => ({
        shipped: [{ title }],
        slipping: [],
        blockers: [{ description: "Waiting on the vendor" }],
        kpis: [],
        note: null,
      });
      await client.$transaction((tx) =>
        writeUpdates(
          tx,
          org.id,
          DAYS.flatMap((day, d) =>
            members
              .filter((_, i) => (i + d) % 2 === 0)
              .map((m) => ({ memberId: m.id, day, content: content(`Work of ${day}`), source: "import" as const })),
          ),
        ),
      );

      const env = {
        DATABASE_URL: pgbouncer.url(database.name),
        NEXTAUTH_SECRET: SECRET,
        SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*",
        // Each generated day is one "generated a day's reports" line, from whichever instance generated it.
        SUNDOWN_LOG_LEVEL: "info",
      };
      running.push(...(await Promise.all([startServer(env), startServer(env)])));

      // Every working day from the first update on (the ten days, and those since, up to the last cutoff passed).
      const generated = async () =>
        client.reportGeneration.count({ where: { organizationId: org.id, generatedAt: null } }).then((n) => n === 0);
      await until(generated, 120_000, "every queued day to be generated");
      const days = await client.reportGeneration.findMany({
        where: { organizationId: org.id },
        select: { day: true },
        orderBy: { day: "asc" },
      });
      expect(days[0]!.day.toISOString().slice(0, 10)).toBe(DAYS[0]);
      expect(days.length).toBeGreaterThanOrEqual(DAYS.length);

      // Each day generated by exactly one of the two instances, once.
      const generatedLines = running
        .flatMap((server) => server.output().split("\n"))
        .filter((line) => line.includes('"generated a day\'s reports"') && line.includes(org.id))
        .map((line) => (JSON.parse(line) as { day: string }).day);
      expect(generatedLines.sort()).toEqual(days.map((d) => d.day.toISOString().slice(0, 10)));

      const reports = await client.report.findMany({
        where: { organizationId: org.id },
        select: { id: true, scope: true, scopeTargetId: true, generatedAt: true },
      });
      const identities = new Set(reports.map((r) => `${r.scope} ${r.scopeTargetId} ${r.generatedAt.toISOString()}`));
      expect(identities.size).toBe(reports.length);
      // The ten written days: 20 member reports, a lead and an organization report each.
      for (const day of DAYS) {
        const ofDay = reports.filter((r) => r.generatedAt.toISOString() === `${day}T12:30:00.000Z`);
        expect(
          ofDay.filter((r) => r.scope === "member"),
          day,
        ).toHaveLength(PEOPLE / 2);
        expect(
          ofDay.filter((r) => r.scope !== "member"),
          day,
        ).toHaveLength(2);
      }

      // Each report announced once, as published, and none as updated: nothing changed after it was generated.
      await until(
        async () => receiver.received.filter((r) => r.body.includes('"report.published"')).length > 0,
        60_000,
        "the first report.published",
      );
      const published = () =>
        receiver.received
          .filter((r) => r.body.includes('"report.published"'))
          .flatMap((r) => reports.filter((report) => r.body.includes(report.id)).map((report) => report.id));
      await until(async () => new Set(published()).size === reports.length, 90_000, "every report's event");
      await new Promise((r) => setTimeout(r, 3_000));
      expect(published().sort()).toEqual(reports.map((r) => r.id).sort());
      expect(receiver.received.filter((r) => r.body.includes('"report.updated"'))).toEqual([]);
    },
    SLOW,
  );
});
