import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMigrations } from "@/lib/db/migrate";
import { runCli } from "../helpers/cli";
import { startRedisServer, type ThrowawayRedis } from "../helpers/redis-server";
import { createSeededDatabase, withDatabase, type SeededDatabase } from "../helpers/seeded-postgres";
import { freePort, ROOT, startServer, tempDataDir, type RunningServer } from "../helpers/server";
import { startUpstashTranslator, type UpstashTranslator } from "../helpers/upstash-rest";

// `sundown doctor` and `sundown db migrate` on a database that does not exist yet, run as an operator runs
// them: real processes, against a real PostgreSQL (directly and through Debian's PgBouncer in transaction
// mode), a real Redis, and the production server for the start banner and the embedded database.

// Each CLI run compiles TypeScript and connects: seconds apiece on a busy machine.
const SLOW = 180_000;
const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;

interface Check {
  name: string;
  status: "pass" | "warn" | "fail";
  detail: string;
  fix?: string;
}

// The test runner's own configuration must not leak into the operator's: each run gets exactly `env`.
const SUNDOWN_SETTINGS =
  /^(DATABASE_|SUNDOWN_|REDIS_URL$|UPSTASH_|NEXTAUTH_|GITHUB_|GOOGLE_|VERCEL$|AWS_LAMBDA|NETLIFY$|NODE_ENV$|PORT$)/;

const sundown = (args: string[], env: Record<string, string>) =>
  runCli(args, {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !SUNDOWN_SETTINGS.test(name))),
    ...env,
  } as NodeJS.ProcessEnv);

async function doctor(env: Record<string, string>): Promise<{ code: number | null; ok: boolean; checks: Check[] }> {
  const res = await sundown(["doctor", "--json"], env);
  expect(res.stderr).toBe("");
  const report = JSON.parse(res.stdout) as { ok: boolean; checks: Check[] };
  expect(report.ok).toBe(res.code === 0);
  return { code: res.code, ...report };
}

const check = (checks: Check[], name: string) => checks.find((c) => c.name === name);

const production = {
  NODE_ENV: "production",
  SUNDOWN_URL: "https://sundown.example.com",
  NEXTAUTH_SECRET: "doctor-test-session-secret-0123456789",
};

/** Waits for the server to print its banner, which follows the database's first answer. */
async function bannerOf(server: RunningServer): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (!server.output().includes("  Rate-limit store: ") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server.output();
}

/** A TCP server that accepts connections and never answers: a hung database. */
async function startBlackHole(): Promise<{ port: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe.runIf(adminUrl)("sundown doctor on PostgreSQL", () => {
  let database: SeededDatabase;
  let redis: ThrowawayRedis;
  let pgbouncer: { url: string; dir: string } | undefined;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createSeededDatabase(adminUrl!, "sundown_doctor");
    redis = await startRedisServer();
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const port = await freePort();
    const dir = tempDataDir();
    execFileSync(path.join(ROOT, "scripts/start-pgbouncer.sh"), [String(port), new URL(adminUrl!).port || "5432", dir]);
    pgbouncer = { url: withDatabase(`postgresql://postgres@127.0.0.1:${port}/`, database.name), dir };
  });

  afterAll(async () => {
    if (pgbouncer) process.kill(Number(readFileSync(path.join(pgbouncer.dir, "pgbouncer.pid"), "utf8")), "SIGTERM");
    await admin?.end();
    await redis?.stop();
    await database?.drop();
  });

  it(
    "passes a healthy production configuration (direct PostgreSQL, Redis) and exits 0",
    async () => {
      const env = { ...production, DATABASE_URL: database.url, REDIS_URL: redis.url };
      const report = await doctor(env);
      expect(report.code).toBe(0);
      expect(report.checks.map((c) => c.name)).toEqual([
        "environment",
        "node",
        "database",
        "migrations",
        "statement-timeout",
        "database-clock",
        "rate-limit-store",
        "redis-clock",
        "public-url",
        "session-secret",
        "founders",
        "mail",
      ]);
      const statuses = Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
      // Node 20 warns (end of life), Node 24 passes; the test server's role has no statement_timeout.
      expect(statuses).toMatchObject({
        environment: "pass",
        database: "pass",
        migrations: "pass",
        "statement-timeout": "warn",
        "database-clock": "pass",
        "rate-limit-store": "pass",
        "redis-clock": "pass",
        "public-url": "pass",
        "session-secret": "pass",
        // The demo's founders sign in: an organization with a founder who can sign in exists.
        founders: "pass",
        mail: "pass",
      });
      expect(check(report.checks, "node")!.detail).toMatch(
        new RegExp(`^Node ${process.versions.node.replaceAll(".", "\\.")}`),
      );
      expect(check(report.checks, "database")!.detail).toMatch(
        /^PostgreSQL \d+(\.\d+)* at postgresql:\/\/postgres@127\.0\.0\.1:\d+\/sundown_doctor_\w+, reached in \d+ ms, direct: the server listens on the port dialled \(\d+\); statements sent named/,
      );
      const migrations = await readMigrations();
      expect(check(report.checks, "migrations")!.detail).toBe(`all ${migrations.length} applied`);
      expect(check(report.checks, "statement-timeout")).toMatchObject({
        detail: expect.stringMatching(/^statement_timeout is 0 for role postgres: a runaway statement is stopped only/),
        fix: "Run `ALTER ROLE \"postgres\" SET statement_timeout = '3000ms';` as an administrator (new connections pick it up).",
      });
      expect(check(report.checks, "rate-limit-store")!.detail).toMatch(
        new RegExp(`^Redis at ${redis.url}, answered PING in \\d+ ms$`),
      );

      // With a server-side timeout (set on the database here, so as not to touch the shared role), it passes.
      await admin.query(`ALTER DATABASE "${database.name}" SET statement_timeout = '3s'`);
      const withTimeout = await doctor(env);
      expect(check(withTimeout.checks, "statement-timeout")).toEqual({
        name: "statement-timeout",
        status: "pass",
        detail: "the server stops a statement after 3s (statement_timeout of postgres)",
      });
      await admin.query(`ALTER DATABASE "${database.name}" RESET statement_timeout`);
    },
    SLOW,
  );

  it(
    "prints one line per check with its mark and the fix beneath",
    async () => {
      const res = await sundown(["doctor"], { ...production, DATABASE_URL: database.url, REDIS_URL: redis.url });
      expect(res.code).toBe(0);
      // Names padded to the longest ("statement-timeout"), fixes indented to the details.
      expect(res.stdout).toMatch(/^✓ environment {8}valid, judged for production \(NODE_ENV=production\)\n/);
      expect(res.stdout).toMatch(
        /\n! statement-timeout {2}statement_timeout is 0 for role postgres: .*\n {21}fix: Run `ALTER ROLE/,
      );
      expect(res.stdout).toMatch(
        /\n✓ rate-limit-store {3}Redis at redis:\/\/127\.0\.0\.1:\d+, answered PING in \d+ ms\n/,
      );
      expect(res.stdout).toMatch(/\n\nNo failures; \d warnings?\.\n$/);
    },
    SLOW,
  );

  it(
    "through PgBouncer in transaction mode: says the database is pooled and statements go unnamed",
    async () => {
      const report = await doctor({ ...production, DATABASE_URL: pgbouncer!.url, REDIS_URL: redis.url });
      expect(report.code).toBe(0);
      const port = new URL(pgbouncer!.url).port;
      expect(check(report.checks, "database")).toMatchObject({
        status: "pass",
        detail: expect.stringContaining(
          `, through a connection pooler: port ${port} is dialled but the server listens on ${new URL(adminUrl!).port || 5432}; ` +
            "statements sent unnamed, as a transaction pooler needs: handled",
        ),
      });
      expect(check(report.checks, "migrations")!.status).toBe("pass");
      expect(check(report.checks, "statement-timeout")!.detail).toMatch(
        /; through a pooler, a role setting is the one way to give the server a timeout$/,
      );
    },
    SLOW,
  );

  it(
    "through PgBouncer, a database that does not exist gets the fix a direct connection gets, also while PgBouncer holds logins to it",
    async () => {
      const pooledUrl = (name: string) =>
        withDatabase(`postgresql://postgres@127.0.0.1:${new URL(pgbouncer!.url).port}/`, name);
      const missing = (name: string) => ({
        name: "database",
        status: "fail",
        detail: expect.stringMatching(
          new RegExp(`^PostgreSQL at ${pooledUrl(name).replaceAll(".", "\\.")}: database "${name}" does not exist`),
        ),
        fix: "Run `npx sundown db migrate` with this DATABASE_URL: it creates the database where the role may, or says what to run.",
      });
      const unique = (label: string) => `sundown_doctor_${label}_${Date.now()}_${process.pid}`;

      // PgBouncer's first answer to a login: the server's refusal, as a protocol error (08P01).
      const refused = unique("refused");
      const first = await doctor({ DATABASE_URL: pooledUrl(refused), DATABASE_TIMEOUT_MS: "2000" });
      expect(check(first.checks, "database")).toEqual(missing(refused));

      // For 15 s after a refused login (server_login_retry) PgBouncer holds every further login to that database
      // unanswered: the doctor asks the server whether the database exists.
      const held = unique("held");
      const earlier = new pg.Client({ connectionString: pooledUrl(held) });
      await expect(earlier.connect()).rejects.toThrow(/does not exist/);
      await earlier.end().catch(() => {});
      const report = await doctor({ DATABASE_URL: pooledUrl(held), DATABASE_TIMEOUT_MS: "2000" });
      expect(check(report.checks, "database")).toEqual({
        ...missing(held),
        detail: expect.stringContaining(
          `database "${held}" does not exist (the server says so; a connection pooler held the login instead of answering)`,
        ),
      });
      expect(report.code).toBe(1);
    },
    SLOW,
  );

  it(
    "the production server's banner names the pooled database, the store and the public URL",
    async () => {
      let server: RunningServer | undefined;
      try {
        server = await startServer({ DATABASE_URL: pgbouncer!.url, REDIS_URL: redis.url, SUNDOWN_LOG_LEVEL: "info" });
        const banner = await bannerOf(server);
        // The pooler found at start is expected on every start of such a deployment: said at info, never a warning
        // (log drains alert on warnings).
        const lines = banner
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { level: string; msg: string; reason?: string });
        expect(lines.filter((line) => line.level === "warn" || line.level === "error")).toEqual([]);
        expect(lines).toContainEqual(
          expect.objectContaining({
            level: "info",
            msg: "sending database statements unnamed from now on",
            reason: expect.stringMatching(/^a connection pooler: port \d+ is dialled but the server listens on \d+$/),
          }),
        );
        const port = new URL(pgbouncer!.url).port;
        expect(banner).toContain(`  Sundown is running at ${server.url}\n`);
        expect(banner).toMatch(
          new RegExp(
            `  Database: PostgreSQL at postgresql://postgres@127\\.0\\.0\\.1:${port}/${database.name}, through a connection pooler: ` +
              `port ${port} is dialled but the server listens on \\d+; statements sent unnamed, as a transaction pooler needs: handled\\n`,
          ),
        );
        expect(banner).toContain(`  Rate-limit store: Redis at ${redis.url}\n`);
      } finally {
        await server?.stop();
      }
    },
    SLOW,
  );

  it(
    "fails with exit code 1 on pending migrations, naming them and the command",
    async () => {
      const migrated = await createSeededDatabase(adminUrl!, "sundown_doctor_pending");
      try {
        const names = (await readMigrations()).map((m) => m.name);
        const last = names.at(-1)!;
        const db = new pg.Client({ connectionString: migrated.url });
        await db.connect();
        await db.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [last]);
        await db.end();
        const report = await doctor({ ...production, DATABASE_URL: migrated.url });
        expect(report.code).toBe(1);
        expect(check(report.checks, "migrations")).toEqual({
          name: "migrations",
          status: "fail",
          detail: `1 of ${names.length} not applied: ${last}`,
          fix: "Run `npx sundown db migrate` with this DATABASE_URL (once per deploy, before the new version serves).",
        });
      } finally {
        await migrated.drop();
      }
    },
    SLOW,
  );

  it(
    "fails on a hung database within DATABASE_TIMEOUT_MS, and skips what needs it",
    async () => {
      const hole = await startBlackHole();
      try {
        const report = await doctor({
          DATABASE_URL: `postgresql://postgres@127.0.0.1:${hole.port}/sundown`,
          DATABASE_TIMEOUT_MS: "1000",
        });
        expect(report.code).toBe(1);
        expect(check(report.checks, "database")).toEqual({
          name: "database",
          status: "fail",
          detail: `PostgreSQL at postgresql://postgres@127.0.0.1:${hole.port}/sundown: no answer within 1000 ms (DATABASE_TIMEOUT_MS)`,
          fix: expect.stringMatching(/^Check that PostgreSQL is up and that this machine may reach it/),
        });
        for (const name of ["migrations", "statement-timeout", "database-clock"]) {
          expect(check(report.checks, name)).toBeUndefined();
        }
      } finally {
        hole.close();
      }
    },
    SLOW,
  );

  it(
    "fails when NEXTAUTH_URL and SUNDOWN_URL disagree",
    async () => {
      const report = await doctor({
        ...production,
        DATABASE_URL: database.url,
        NEXTAUTH_URL: "https://login.example.com",
      });
      expect(report.code).toBe(1);
      expect(check(report.checks, "public-url")).toEqual({
        name: "public-url",
        status: "fail",
        detail:
          "NEXTAUTH_URL (https://login.example.com) and SUNDOWN_URL (https://sundown.example.com) are different origins: " +
          "sign-in would send people to one while the API's links point to the other",
        fix: "Set NEXTAUTH_URL to https://sundown.example.com, or unset it: sign-in then uses SUNDOWN_URL's origin.",
      });
    },
    SLOW,
  );

  it(
    "never prints a password, token or secret, whether the services answer or not",
    async () => {
      const upstash: UpstashTranslator = await startUpstashTranslator(redis.url, "upstash-token-never-shown");
      const secrets = {
        password: "pg-password-never-shown",
        nextauth: "nextauth-secret-never-shown-0123",
        github: "github-secret-never-shown",
        redis: "redis-password-never-shown",
      };
      try {
        const withPassword = new URL(database.url);
        withPassword.password = secrets.password;
        const reachable = {
          ...production,
          NEXTAUTH_SECRET: secrets.nextauth,
          GITHUB_ID: "github-id",
          GITHUB_SECRET: secrets.github,
          DATABASE_URL: withPassword.toString(),
          UPSTASH_REDIS_REST_URL: upstash.url,
          UPSTASH_REDIS_REST_TOKEN: upstash.token,
        };
        const refused = await freePort();
        const unreachable = {
          ...reachable,
          DATABASE_URL: `postgresql://postgres:${secrets.password}@127.0.0.1:${refused}/sundown`,
          UPSTASH_REDIS_REST_URL: "",
          UPSTASH_REDIS_REST_TOKEN: "",
          REDIS_URL: `redis://:${secrets.redis}@127.0.0.1:${refused}`,
        };
        const runs = await Promise.all([
          sundown(["doctor", "--json"], reachable),
          sundown(["doctor"], reachable),
          sundown(["doctor", "--json"], unreachable),
          sundown(["doctor"], unreachable),
        ]);
        const [reachableJson, , unreachableJson] = runs.map((r) => r.stdout);
        // The runs did reach (or fail to reach) what they were pointed at…
        expect(reachableJson).toContain(`"detail":"Upstash at ${upstash.url}, answered PING in`);
        expect(reachableJson).toMatch(/"detail":"PostgreSQL [\d.]+ at postgresql:\/\/postgres:\*\*\*\*@127\.0\.0\.1:/);
        expect(unreachableJson).toContain(`Redis at redis://:****@127.0.0.1:${refused} did not answer`);
        // …and no secret appears anywhere in what they printed.
        for (const output of runs.flatMap((r) => [r.stdout, r.stderr])) {
          for (const secret of [...Object.values(secrets), upstash.token]) expect(output).not.toContain(secret);
        }
      } finally {
        await upstash.close();
      }
    },
    SLOW,
  );
});

describe.runIf(adminUrl)("sundown db migrate on a database that does not exist yet", () => {
  const admin = new pg.Client({ connectionString: adminUrl });

  beforeAll(() => admin.connect());
  afterAll(() => admin.end());

  it(
    "creates it (its name quoted as given), says so, and migrates it",
    async () => {
      const name = `Sundown-New_${Date.now()}_${process.pid}`;
      const url = withDatabase(adminUrl!, name);
      try {
        const res = await sundown(["db", "migrate"], { DATABASE_URL: url });
        expect(res.stderr).toBe("");
        expect(res.code).toBe(0);
        const migrations = await readMigrations();
        expect(res.stdout).toBe(
          [
            `Created database "${name}".`,
            `Applied ${migrations.length} migrations to PostgreSQL:`,
            ...migrations.map((m) => `  ${m.name}`),
            "",
          ].join("\n"),
        );
        const { rows } = await admin.query("SELECT datname FROM pg_database WHERE datname = $1", [name]);
        expect(rows).toEqual([{ datname: name }]);
        const report = await doctor({ DATABASE_URL: url });
        expect(check(report.checks, "migrations")).toMatchObject({ status: "pass" });
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    },
    SLOW,
  );

  it(
    "where the role may not create databases, says exactly what to run, and that works",
    async () => {
      const role = `sundown_nocreate_${process.pid}`;
      const name = `sundown_nocreate_db_${Date.now()}_${process.pid}`;
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      const asRole = new URL(withDatabase(adminUrl!, name));
      asRole.username = role;
      asRole.password = "";
      try {
        const doctorReport = await doctor({ DATABASE_URL: asRole.toString() });
        expect(check(doctorReport.checks, "database")).toMatchObject({
          status: "fail",
          detail: expect.stringContaining(`database "${name}" does not exist`),
          fix: expect.stringMatching(/^Run `npx sundown db migrate` with this DATABASE_URL: it creates the database/),
        });

        const res = await sundown(["db", "migrate"], { DATABASE_URL: asRole.toString() });
        expect(res.code).toBe(1);
        expect(res.stdout).toBe("");
        const statement = `CREATE DATABASE "${name}" OWNER "${role}";`;
        expect(res.stderr).toBe(
          `sundown: The database "${name}" does not exist, and role "${role}" cannot create it (permission denied to create database).\n` +
            "Create it as a role with CREATEDB (or in your provider's console), then run `npx sundown db migrate` again:\n" +
            `  ${statement}\n`,
        );
        const { rows } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        expect(rows).toEqual([]);

        // The instruction, run as told, is all it takes.
        await admin.query(statement);
        const again = await sundown(["db", "migrate"], { DATABASE_URL: asRole.toString() });
        expect(again.stderr).toBe("");
        expect(again.stdout).toMatch(/^Applied \d+ migrations to PostgreSQL:\n/);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
      }
    },
    SLOW,
  );
});

describe("sundown doctor on the embedded database", () => {
  it(
    "reports a running server's database as in use by it, asks it about migrations, and never opens it",
    async () => {
      let server: RunningServer | undefined;
      try {
        server = await startServer();
        const banner = await bannerOf(server);
        const dataDir = banner.match(/ {2}Database: embedded at (\S+)\n/)?.[1] ?? "";
        expect(dataDir).not.toBe("");
        expect(banner).toContain("  Rate-limit store: memory (each instance counts on its own)\n");
        const lock = readFileSync(path.join(dataDir, "sundown.lock"), "utf8");
        const report = await doctor({ SUNDOWN_DATA_DIR: dataDir });
        const pid = server.process.pid;
        expect(check(report.checks, "database")).toEqual({
          name: "database",
          status: "pass",
          detail: `embedded at ${dataDir}, in use by the running server (pid ${pid})`,
        });
        expect(check(report.checks, "migrations")).toEqual({
          name: "migrations",
          status: "pass",
          detail: `all ${(await readMigrations()).length} applied (asked the running server, pid ${pid})`,
        });
        // The server still holds its database: the doctor took nothing from it.
        expect(readFileSync(path.join(dataDir, "sundown.lock"), "utf8")).toBe(lock);
        expect((await fetch(`${server.url}/api/v1`)).status).toBe(200);

        // In production, the embedded database warns: it serves one instance only.
        const inProduction = await doctor({ ...production, SUNDOWN_DATA_DIR: dataDir });
        expect(check(inProduction.checks, "database")).toMatchObject({
          status: "warn",
          fix: "Set DATABASE_URL to a PostgreSQL database to run more than one instance.",
        });
        expect(check(inProduction.checks, "rate-limit-store")).toMatchObject({ status: "warn" });
        expect(inProduction.code).toBe(0);
      } finally {
        await server?.stop();
      }
    },
    SLOW,
  );
});
