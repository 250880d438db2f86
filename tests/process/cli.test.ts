import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "@/lib/auth/api-key";
import { operatorEnv, runCli } from "../helpers/cli";
import { startServer, tempDataDir, type RunningServer } from "../helpers/server";

// `sundown` as an operator runs it: a real process, on the embedded database with and without the
// server running on it, and on PostgreSQL.

// Each CLI run compiles TypeScript and opens a database: seconds apiece on a busy machine.
const SLOW = 180_000;
const POSTGRES_ADMIN_URL = process.env.SUNDOWN_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** `sundown args…` as an operator runs it: on PostgreSQL when `env` names a DATABASE_URL, else embedded. */
const sundown = (args: string[], env: Record<string, string>, options?: { input?: string; cwd?: string }) =>
  runCli(args, operatorEnv(env), options);

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release" }],
  silent: [],
  slipping: [],
  blockers: [],
});

/** A file whose reports, if written, would be the organization's most recent ones. */
function importFile(dir: string, name: string, reports: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ reports }, null, 2));
  return file;
}

function expectCreatedKeyJson(stdout: string, organizationSlug: string) {
  const created = JSON.parse(stdout);
  expect(Object.keys(created)).toEqual(["id", "key", "name", "scopes", "organization"]);
  expect(Object.keys(created.organization)).toEqual(["id", "slug", "name"]);
  expect(created.key).toMatch(/^sdn_sk_[0-9A-Za-z]{38}$/);
  expect(created.organization.slug).toBe(organizationSlug);
  return created as {
    id: string;
    key: string;
    name: string;
    scopes: string[];
    organization: { id: string; slug: string; name: string };
  };
}

describe("on the embedded database", () => {
  const dataDir = tempDataDir();
  const env = { SUNDOWN_DATA_DIR: dataDir };
  let server: RunningServer | undefined;
  let offlineKey: string;

  afterAll(async () => {
    await server?.stop();
  });

  describe("with no server running", () => {
    it(
      "opens the database itself (creating and seeding it), and releases it afterwards",
      async () => {
        const res = await sundown(
          ["keys", "create", "--org", "acme", "--name", "offline", "--scopes", "reports:read,team:read", "--json"],
          env,
        );
        expect(res.stderr).toBe("");
        expect(res.code).toBe(0);
        const created = expectCreatedKeyJson(res.stdout, "acme");
        expect(created).toMatchObject({ name: "offline", scopes: ["reports:read", "team:read"] });
        offlineKey = created.key;
        expect(existsSync(path.join(dataDir, "sundown.lock"))).toBe(false);
      },
      SLOW,
    );

    it(
      "takes over a lock left by a process that no longer exists",
      async () => {
        const dead = spawn(process.execPath, ["-e", ""]);
        await new Promise((resolve) => dead.on("close", resolve));
        const socket = path.join(dataDir, "gone.sock");
        writeFileSync(path.join(dataDir, "sundown.lock"), JSON.stringify({ pid: dead.pid, role: "server", socket }));
        const res = await sundown(["orgs", "list", "--json"], env);
        expect(res.stderr).toBe("");
        expect(res.code).toBe(0);
        expect(JSON.parse(res.stdout).map((o: { slug: string }) => o.slug)).toEqual(["acme", "globex"]);
        expect(existsSync(path.join(dataDir, "sundown.lock"))).toBe(false);
      },
      SLOW,
    );
  });

  describe("while the server runs on it", () => {
    beforeAll(async () => {
      server = await startServer(env);
    }, 120_000);

    const api = (pathname: string, key: string) =>
      fetch(`${server!.url}${pathname}`, { headers: { Authorization: `Bearer ${key}` } });

    it(
      "the server took the data the CLI wrote, and records its private command socket in the lock",
      async () => {
        expect((await api("/api/v1/me", offlineKey)).status).toBe(200);
        const lock = JSON.parse(readFileSync(path.join(dataDir, "sundown.lock"), "utf8"));
        expect(lock).toMatchObject({ role: "server", socket: path.join(dataDir, "sundown.sock") });
        expect(statSync(lock.socket).isSocket()).toBe(true);
        expect(statSync(lock.socket).mode & 0o777).toBe(0o600);
      },
      SLOW,
    );

    it(
      "keys create prints exactly the JSON shape, and the key works with its scopes only",
      async () => {
        const res = await sundown(
          ["keys", "create", "--org", "acme", "--name", "x", "--scopes", "reports:read", "--json"],
          env,
        );
        expect(res.stderr).toBe("");
        expect(res.code).toBe(0);
        const created = expectCreatedKeyJson(res.stdout, "acme");
        expect(created).toMatchObject({
          name: "x",
          scopes: ["reports:read"],
          organization: { slug: "acme", name: "Acme Robotics" },
        });

        const me = await api("/api/v1/me", created.key);
        expect(me.status).toBe(200);
        expect(await me.json()).toEqual({
          organization: { id: created.organization.id, name: "Acme Robotics" },
          scopes: ["reports:read"],
        });

        const team = await api("/api/v1/team", created.key);
        expect(team.status).toBe(403);
        expect(await team.json()).toEqual({
          error: "insufficient_scope",
          message: expect.any(String),
          required_scope: "team:read",
          request_id: expect.any(String),
        });

        const list = await sundown(["keys", "list", "--org", "acme", "--json"], env);
        expect(list.code).toBe(0);
        const listed = JSON.parse(list.stdout).find((k: { id: string }) => k.id === created.id);
        expect(listed).toMatchObject({ name: "x", status: "active", created_by: "cli", scopes: ["reports:read"] });
        expect(list.stdout).not.toContain(created.key);
      },
      SLOW,
    );

    it(
      "human keys create shows the key once, with a warning on stderr",
      async () => {
        const res = await sundown(
          ["keys", "create", "--org", "globex", "--name", "human", "--scopes", "team:read"],
          env,
        );
        expect(res.code).toBe(0);
        const key = /sdn_sk_[0-9A-Za-z]{38}/.exec(res.stdout)?.[0];
        expect(key).toBeDefined();
        expect(res.stderr).toContain("Copy the key now: it is shown only this once");
        expect((await api("/api/v1/team", key!)).status).toBe(200);
      },
      SLOW,
    );

    it(
      "keys revoke: the very next request with the key is refused",
      async () => {
        const created = expectCreatedKeyJson(
          (
            await sundown(
              ["keys", "create", "--org", "acme", "--name", "to-revoke", "--scopes", "reports:read", "--json"],
              env,
            )
          ).stdout,
          "acme",
        );
        expect((await api("/api/v1/me", created.key)).status).toBe(200);
        const res = await sundown(["keys", "revoke", created.id], env);
        expect(res.stderr).toBe("");
        expect(res.code).toBe(0);
        expect(res.stdout).toBe(
          `Revoked API key "to-revoke" (${created.key.slice(0, 11)}…${created.key.slice(-4)}, id ${created.id}) of Acme Robotics (acme): the API refuses it from now on.\n`,
        );
        const me = await api("/api/v1/me", created.key);
        expect(me.status).toBe(401);
        expect(await me.json()).toMatchObject({ error: "unauthorized" });
      },
      SLOW,
    );

    it(
      "a malformed import writes nothing and names the path; a valid one writes every report",
      async () => {
        const reader = expectCreatedKeyJson(
          (
            await sundown(
              ["keys", "create", "--org", "acme", "--name", "import-reader", "--scopes", "reports:read", "--json"],
              env,
            )
          ).stdout,
          "acme",
        );
        const latest = async () =>
          (await (await api("/api/v1/reports?limit=5", reader.key)).json()).reports as { headline: string }[];
        const before = await latest();
        // Dated after every demo report: written, they would head the list.
        const future = (i: number) => `2030-01-0${i + 1}T12:00:00Z`;
        const bad = importFile(dataDir, "bad.json", [
          { scope: "org", generated_at: future(0), report: content("should not exist 0") },
          { scope: "org", generated_at: future(1), report: content("should not exist 1") },
          { scope: "org", generated_at: future(2), report: { ...content("should not exist 2"), shipped: "x" } },
        ]);
        const res = await sundown(["reports", "import", bad, "--org", "acme"], env);
        expect(res.code).toBe(1);
        expect(res.stdout).toBe("");
        expect(res.stderr).toBe(
          "sundown: The import file is invalid (1 problem); nothing was imported.\n  reports[2].report.shipped: expected array, received string\n",
        );
        expect(await latest()).toEqual(before);

        // Checked by the server against its database: still nothing written.
        const stranger = importFile(dataDir, "stranger.json", [
          { scope: "org", generated_at: future(0), report: content("should not exist 0") },
          {
            scope: "member",
            scope_target_id: "00000000-0000-4000-8000-000000000000",
            generated_at: future(1),
            report: content("x"),
          },
        ]);
        const refused = await sundown(["reports", "import", stranger, "--org", "acme"], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("reports[1].scope_target_id: no member with this id in organization acme");
        expect(await latest()).toEqual(before);

        const syntax = path.join(dataDir, "syntax.json");
        writeFileSync(syntax, '{"reports": [\n  {"scope": "org",, "generated_at": "x"}\n]}\n');
        const broken = await sundown(["reports", "import", syntax, "--org", "acme"], env);
        expect(broken.code).toBe(1);
        expect(broken.stderr).toContain("not valid JSON at line 2, column 19");

        const good = [0, 1].map((i) => ({ scope: "org", generated_at: future(i), report: content(`imported ${i}`) }));
        const ok = await sundown(["reports", "import", "-", "--org", "acme"], env, { input: JSON.stringify(good) });
        expect(ok.stderr).toBe("");
        expect(ok.code).toBe(0);
        expect(ok.stdout).toBe("Imported 2 reports into Acme Robotics (acme): 2 added, 0 unchanged, 0 replaced.\n");
        expect((await latest()).slice(0, 3).map((r) => r.headline)).toEqual([
          "imported 1",
          "imported 0",
          before[0]!.headline,
        ]);
      },
      SLOW,
    );

    it(
      "failures are one clear line on stderr with exit code 1 (failed) or 2 (usage), never a stack trace",
      async () => {
        const unknownOrg = await sundown(
          ["keys", "create", "--org", "nope", "--name", "x", "--scopes", "reports:read"],
          env,
        );
        expect(unknownOrg).toEqual({
          code: 1,
          stdout: "",
          stderr: 'sundown: No organization "nope". Run `sundown orgs list` to see them.\n',
        });
        const unknownKey = await sundown(["keys", "revoke", "00000000-0000-4000-8000-000000000000"], env);
        expect(unknownKey.code).toBe(1);
        expect(unknownKey.stderr).toBe(
          "sundown: No API key with id 00000000-0000-4000-8000-000000000000. Run `sundown keys list --org <org>` to see the keys.\n",
        );
        const badScope = await sundown(["keys", "create", "--org", "acme", "--name", "x", "--scopes", "admin"], env);
        expect(badScope.code).toBe(2);
        expect(badScope.stderr).toMatch(
          /^sundown keys create: --scopes: Unknown scope "admin"; valid scopes are reports:read, team:read\.\n/,
        );
      },
      SLOW,
    );

    it(
      "db migrate explains that the embedded database migrates itself",
      async () => {
        const res = await sundown(["db", "migrate"], env);
        expect(res.code).toBe(0);
        expect(res.stdout).toMatch(
          /^The embedded database is migrated automatically whenever it is opened: .* applied\.\n$/,
        );
      },
      SLOW,
    );

    it(
      "when the server stops, it removes its socket and lock; the CLI then opens the database itself",
      async () => {
        await server!.stop();
        server = undefined;
        expect(existsSync(path.join(dataDir, "sundown.sock"))).toBe(false);
        expect(existsSync(path.join(dataDir, "sundown.lock"))).toBe(false);
        const res = await sundown(["keys", "list", "--org", "acme", "--json"], env);
        expect(res.code).toBe(0);
        expect(JSON.parse(res.stdout).map((k: { name: string }) => k.name)).toContain("to-revoke");
      },
      SLOW,
    );
  });
});

describe("on PostgreSQL (DATABASE_URL)", () => {
  const name = `sundown_cli_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  const url = (() => {
    const u = new URL(POSTGRES_ADMIN_URL);
    u.pathname = `/${name}`;
    return u.toString();
  })();
  const untouchedDataDir = path.join(tempDataDir(), "never-created");
  const env = { DATABASE_URL: url, SUNDOWN_DATA_DIR: untouchedDataDir };
  let db: pg.Client;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    db = new pg.Client({ connectionString: url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it(
    "before migrating, says to run db migrate",
    async () => {
      const res = await sundown(["orgs", "list"], env);
      expect(res).toEqual({
        code: 1,
        stdout: "",
        stderr: "sundown: The database has no Sundown tables yet: run `npx sundown db migrate` first.\n",
      });
    },
    SLOW,
  );

  it(
    "db migrate applies the migrations once; seed --demo adds the demo organizations once",
    async () => {
      const first = await sundown(["db", "migrate"], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^Applied \d+ migrations? to PostgreSQL:\n/);
      const again = await sundown(["db", "migrate"], env);
      expect(again.stdout).toMatch(/^PostgreSQL is up to date \(\d+ migrations? applied\)\.\n$/);

      expect((await sundown(["seed", "--demo"], env)).stdout).toBe("Seeded demo organizations: acme, globex.\n");
      expect((await sundown(["seed", "--demo"], env)).stdout).toBe(
        "Already present, left as they are: acme, globex.\n",
      );
    },
    SLOW,
  );

  it(
    "keys create stores only the key's hash, recorded as created by the cli; revoke marks it revoked",
    async () => {
      const res = await sundown(
        ["keys", "create", "--org", "globex", "--name", "pg", "--scopes", "team:read", "--expires", "30d", "--json"],
        env,
      );
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      const created = expectCreatedKeyJson(res.stdout, "globex");
      const { rows } = await db.query(
        `SELECT k.hashed_key, k.expires_at, e.actor_label FROM api_keys k JOIN activity_events e ON e.subject_type = 'api_key' AND e.subject_id = k.id WHERE k.id = $1`,
        [created.id],
      );
      expect(rows).toEqual([{ hashed_key: hashApiKey(created.key), expires_at: expect.any(Date), actor_label: "cli" }]);

      expect((await sundown(["keys", "revoke", created.id], env)).code).toBe(0);
      const revoked = await db.query(`SELECT revoked_at FROM api_keys WHERE id = $1`, [created.id]);
      expect(revoked.rows[0].revoked_at).toBeInstanceOf(Date);
    },
    SLOW,
  );

  it(
    "keys roll prints the new key as keys create does; the old one is listed as rolled until its overlap ends",
    async () => {
      const create = ["keys", "create", "--org", "globex", "--name", "roller", "--scopes", "team:read"];
      const old = expectCreatedKeyJson((await sundown([...create, "--expires", "5d", "--json"], env)).stdout, "globex");
      const res = await sundown(["keys", "roll", old.id, "--overlap", "24h", "--json"], env);
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      const rolled = expectCreatedKeyJson(res.stdout, "globex");
      expect(rolled).toMatchObject({ name: "roller", scopes: ["team:read"] });
      expect(rolled.id).not.toBe(old.id);

      const { rows } = await db.query(
        `SELECT id, revoked_at - now() > interval '23 hours' AS overlapping, rolled_to_id, expires_at FROM api_keys WHERE id IN ($1, $2) ORDER BY created_at`,
        [old.id, rolled.id],
      );
      expect(rows).toEqual([
        { id: old.id, overlapping: true, rolled_to_id: rolled.id, expires_at: rows[1].expires_at },
        { id: rolled.id, overlapping: null, rolled_to_id: null, expires_at: expect.any(Date) },
      ]);
      const events = await db.query(
        `SELECT action, actor_label FROM activity_events WHERE subject_type = 'api_key' AND subject_id = $1`,
        [rolled.id],
      );
      expect(events.rows).toEqual([{ action: "rolled", actor_label: "cli" }]);

      const table = (await sundown(["keys", "list", "--org", "globex"], env)).stdout.split("\n");
      expect(table.find((line) => line.startsWith(old.id))).toMatch(/ rolled, stops \d{4}-\d\d-\d\d \d\d:\d\d /);
      expect(table.find((line) => line.startsWith(rolled.id))).toMatch(/ active, expires in 5 days /);
      const listed = JSON.parse((await sundown(["keys", "list", "--org", "globex", "--json"], env)).stdout);
      expect(listed.find((k: { id: string }) => k.id === old.id)).toMatchObject({
        status: "rolled",
        rolled_to_id: rolled.id,
        expiring_in_days: 5,
      });

      const again = await sundown(["keys", "roll", old.id, "--overlap", "0"], env);
      expect(again).toEqual({
        code: 1,
        stdout: "",
        stderr: "sundown: This key has already been rolled; roll its replacement instead.\n",
      });
      const human = await sundown(["keys", "roll", rolled.id, "--overlap", "0"], env);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(`replaces ${rolled.id}, which the API refuses from now on`);
      expect(human.stderr).toMatch(/^Copy the key now/);
      const count = await db.query(`SELECT count(*) FROM api_keys WHERE name = 'roller'`);
      expect(count.rows[0].count).toBe("3");
    },
    SLOW,
  );

  it(
    "keys list gives each key's last 30 days of usage: per day in JSON, the total in the table",
    async () => {
      const created = expectCreatedKeyJson(
        (await sundown(["keys", "create", "--org", "globex", "--name", "busy", "--scopes", "team:read", "--json"], env))
          .stdout,
        "globex",
      );
      const today = new Date().toISOString().slice(0, 10);
      await db.query(
        `INSERT INTO api_key_usage (api_key_id, organization_id, day, successes, client_errors, rate_limited)
         VALUES ($1, $2, $3::date, 90, 7, 3), ($1, $2, $3::date - 29, 20, 0, 0), ($1, $2, $3::date - 30, 500, 0, 0)`,
        [created.id, created.organization.id, today],
      );
      const json = await sundown(["keys", "list", "--org", "globex", "--json"], env);
      expect(json.code).toBe(0);
      const { usage } = JSON.parse(json.stdout).find((k: { id: string }) => k.id === created.id);
      expect(usage.totals).toEqual({ successes: 110, client_errors: 7, rate_limited: 3 });
      expect(usage.days).toHaveLength(30);
      expect(usage.days.at(-1)).toEqual({ date: today, successes: 90, client_errors: 7, rate_limited: 3 });
      expect(usage.days[0]).toMatchObject({ successes: 20 });
      expect(usage.days.slice(1, -1).every((d: { successes: number }) => d.successes === 0)).toBe(true);

      const table = await sundown(["keys", "list", "--org", "globex"], env);
      expect(table.stdout.split("\n")[0]).toMatch(/CREATED BY\s+REQUESTS \(30 DAYS\)$/);
      expect(table.stdout.split("\n").find((line) => line.startsWith(created.id))).toMatch(
        /\s120 \(7 client errors, 3 rate-limited\)$/,
      );
    },
    SLOW,
  );

  it(
    "names with terminal escapes: refused at creation; one stored earlier prints escaped, in tables and JSON",
    async () => {
      const hostile = "\u001b]0;pwned\u0007evil\u001b[2J\u009b31m\u202Etxt.exe";
      const refused = await sundown(
        ["keys", "create", "--org", "globex", "--name", hostile, "--scopes", "team:read"],
        env,
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^sundown keys create: --name: Use printable characters only: no control characters, text-direction overrides, invisible characters or line separators\.\n/,
      );
      expect((await db.query(`SELECT count(*) FROM api_keys WHERE name LIKE '%pwned%'`)).rows[0].count).toBe("0");

      // As a name written before the rule existed (or by another tool) would be.
      const { rows } = await db.query(
        `INSERT INTO api_keys (organization_id, name, hashed_key, hint, scopes)
       SELECT id, $1, md5(random()::text), 'sdn_sk_old…name', ARRAY['team:read'] FROM organizations WHERE slug = 'globex' RETURNING id`,
        [hostile],
      );
      const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
      const table = await sundown(["keys", "list", "--org", "globex"], env);
      expect(table.code).toBe(0);
      expect(table.stdout).not.toMatch(raw);
      expect(table.stdout.split("\n").find((line) => line.startsWith(rows[0].id))).toContain(
        "\\x1b]0;pwned\\x07evil\\x1b[2J\\x9b31m\\u202etxt.exe",
      );
      const json = await sundown(["keys", "list", "--org", "globex", "--json"], env);
      expect(json.code).toBe(0);
      expect(json.stdout).not.toMatch(raw);
      expect(JSON.parse(json.stdout).find((k: { id: string }) => k.id === rows[0].id).name).toBe(hostile);
    },
    SLOW,
  );

  it(
    "a malformed import writes nothing; a valid one writes all",
    async () => {
      const count = async () => Number((await db.query(`SELECT count(*) FROM reports`)).rows[0].count);
      const before = await count();
      const dir = tempDataDir();
      const bad = importFile(dir, "bad.json", [
        { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("a") },
        { scope: "lead", generated_at: "2026-11-21T18:00:00Z", report: content("b") },
      ]);
      const res = await sundown(["reports", "import", bad, "--org", "acme"], env);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('reports[1].scope_target_id: required for scope "lead"');
      expect(await count()).toBe(before);

      const good = importFile(dir, "good.json", [
        { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("a") },
        { scope: "org", generated_at: "2026-11-21T19:00:00Z", report: content("b") },
      ]);
      expect((await sundown(["reports", "import", good, "--org", "acme"], env)).stdout).toBe(
        "Imported 2 reports into Acme Robotics (acme): 2 added, 0 unchanged, 0 replaced.\n",
      );
      expect(await count()).toBe(before + 2);
      // A retried import adds nothing.
      expect((await sundown(["reports", "import", good, "--org", "acme"], env)).stdout).toBe(
        "Imported 2 reports into Acme Robotics (acme): 0 added, 2 unchanged, 0 replaced.\n",
      );
      expect(await count()).toBe(before + 2);
    },
    SLOW,
  );

  it(
    "never touches the embedded data directory",
    () => {
      expect(existsSync(untouchedDataDir)).toBe(false);
    },
    SLOW,
  );
});

describe("run from outside the checkout", () => {
  // The default data directory is the checkout's own .data, which tests must not touch: the unit test
  // (tests/unit/project-root.test.ts) checks that default; here every run names its own directory.
  const elsewhere = tempDataDir();

  it(
    "finds its own migrations and creates nothing in the current directory",
    async () => {
      const dataDir = tempDataDir();
      const res = await sundown(["orgs", "list", "--json"], { SUNDOWN_DATA_DIR: dataDir }, { cwd: elsewhere });
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout).map((o: { slug: string }) => o.slug)).toEqual(["acme", "globex"]);
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(existsSync(path.join(dataDir, "pgdata"))).toBe(true);
    },
    SLOW,
  );

  it(
    "a relative SUNDOWN_DATA_DIR is relative to the current directory, as typed",
    async () => {
      const res = await sundown(["db", "migrate"], { SUNDOWN_DATA_DIR: "mine" }, { cwd: elsewhere });
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      expect(readdirSync(elsewhere)).toEqual(["mine"]);
      expect(existsSync(path.join(elsewhere, "mine", "pgdata"))).toBe(true);
    },
    SLOW,
  );
});
