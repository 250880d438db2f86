import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorEnv, runCli } from "../helpers/cli";
import { startServer, tempDataDir, type RunningServer } from "../helpers/server";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// `sundown webhooks` as an operator runs it: a real process on its own embedded database, first with no server
// running (the CLI opens the database itself, and nothing sends what it queues), then with the server running on
// it (the commands go through its socket, and its delivery loop sends the ping to a receiver on loopback).

// Each CLI run compiles TypeScript and opens a database: seconds apiece on a busy machine.
const SLOW = 180_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const SECRET = /whsec_[A-Za-z0-9+/]{43}=/g;
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/** `sundown args…` as an operator runs it, on the embedded database in `env`'s SUNDOWN_DATA_DIR. */
const sundown = (args: string[], env: Record<string, string>) => runCli(args, operatorEnv(env));

/** A command that must succeed quietly; its stdout. */
async function ok(args: string[], env: Record<string, string>): Promise<string> {
  const res = await sundown(args, env);
  expect(res, `sundown ${args.join(" ")}`).toMatchObject({ code: 0, stderr: "" });
  return res.stdout;
}

interface ListedEndpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_by: string | null;
}

const dataDir = tempDataDir();
// The server seals signing secrets under its secret: the CLI, opening the database itself, must use the same one.
const env = {
  SUNDOWN_DATA_DIR: dataDir,
  SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*",
  NEXTAUTH_SECRET: "cli-webhooks-secret-cli-webhooks-secret",
};
// Nothing listens there: with no server running, nothing is sent to it.
const OFFLINE_URL = "http://127.0.0.1:9/hook";

const createAt = (url: string, extra: Record<string, string> = {}) =>
  sundown(["webhooks", "create", "--org", "acme", "--url", url, "--events", "report.published"], { ...env, ...extra });
const refused = (message: string) => ({ code: 1, stdout: "", stderr: `sundown: ${message}\n` });
// The data layer's messages, word for word: the operator reads exactly what the settings form shows.
const ONLY_PUBLIC =
  "Sundown only delivers to public addresses (an operator can allow a host with SUNDOWN_WEBHOOK_ALLOW_HOSTS).";
const PLAIN_HTTP =
  "Use an https:// URL: plain http is only allowed for hosts the operator lists in SUNDOWN_WEBHOOK_ALLOW_HOSTS.";

const list = async (org = "acme") =>
  JSON.parse(await ok(["webhooks", "list", "--org", org, "--json"], env)) as ListedEndpoint[];

describe("with no server running", () => {
  let created: { id: string; secret: string };

  it(
    "create prints the endpoint and its signing secret once; list never shows a secret",
    async () => {
      const human = await sundown(
        ["webhooks", "create", "--org", "acme", "--url", OFFLINE_URL, "--events", "report.published"],
        env,
      );
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Created webhook endpoint for Acme Robotics \(acme\)\.\n\n {2}whsec_/);
      expect(human.stdout.match(SECRET)).toHaveLength(1);
      expect(human.stdout).toContain(`  url      ${OFFLINE_URL}\n  events   report.published\n`);
      expect(human.stderr).toBe(
        "Copy the signing secret now: it is shown only this once and cannot be recovered (if it is lost, roll it).\n",
      );
      const humanSecret = human.stdout.match(SECRET)![0];

      const json = await ok(
        ["webhooks", "create", "--org", "acme", "--url", OFFLINE_URL, "--events", "report.published", "--json"],
        env,
      );
      created = JSON.parse(json);
      expect(Object.keys(created)).toEqual(["id", "url", "events", "secret", "organization"]);
      expect(created).toMatchObject({
        url: OFFLINE_URL,
        events: ["report.published"],
        organization: { slug: "acme", name: "Acme Robotics" },
      });
      expect(created.secret).toMatch(SECRET);
      expect(created.secret).not.toBe(humanSecret);

      const listJson = await ok(["webhooks", "list", "--org", "acme", "--json"], env);
      expect(listJson).not.toMatch(/whsec_/);
      const listed = JSON.parse(listJson) as ListedEndpoint[];
      expect(listed.map((e) => e.id)).toContain(created.id);
      expect(listed.find((e) => e.id === created.id)).toMatchObject({
        url: OFFLINE_URL,
        events: ["report.published"],
        enabled: true,
        disabled_reason: null,
        previous_secret_expires_at: null,
        created_by: "cli",
      });
      expect(listed.every((e) => !("secret" in e))).toBe(true);

      const table = await ok(["webhooks", "list", "--org", "acme"], env);
      expect(table).not.toMatch(/whsec_/);
      expect(table.split("\n")[0]).toMatch(
        /^ID\s+URL\s+EVENTS\s+STATUS\s+FAILING SINCE\s+CREATED \(UTC\)\s+CREATED BY$/,
      );
      expect(table.split("\n").find((line) => line.startsWith(created.id))).toMatch(
        /report\.published\s+enabled\s+-\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+cli$/,
      );
      expect(await ok(["webhooks", "list", "--org", "globex"], env)).toBe(
        "No webhook endpoints in Globex (globex). Add one with:\n  sundown webhooks create --org globex --url https://… --events report.published\n",
      );
    },
    SLOW,
  );

  it(
    "a URL the address rules refuse is one line on stderr, exit code 1, and nothing is saved",
    async () => {
      const before = await list();
      expect(await createAt("https://10.0.0.1/hook")).toEqual(refused(`10.0.0.1 is a private address: ${ONLY_PUBLIC}`));
      expect(await createAt("http://example.com/hook")).toEqual(refused(PLAIN_HTTP));
      // A host that does not resolve is the URL's problem, named as such, not a database that cannot be reached.
      const unresolved = await createAt("https://no-such-host.invalid/hook");
      expect(unresolved).toMatchObject({ code: 1, stdout: "" });
      expect(unresolved.stderr).toMatch(/^sundown: could not resolve no-such-host\.invalid \([A-Z_]+\)\n$/);
      expect(await list()).toEqual(before);
    },
    SLOW,
  );

  it(
    "127.0.0.1 is accepted above only because SUNDOWN_WEBHOOK_ALLOW_HOSTS names it",
    async () => {
      const without = { SUNDOWN_WEBHOOK_ALLOW_HOSTS: "" };
      expect(await createAt(OFFLINE_URL, without)).toEqual(refused(PLAIN_HTTP));
      expect(await createAt("https://127.0.0.1:9/hook", without)).toEqual(
        refused(`127.0.0.1 is a loopback address: ${ONLY_PUBLIC}`),
      );
    },
    SLOW,
  );

  it(
    "a wrong command line is a usage error (exit code 2) naming what is valid",
    async () => {
      const badEvent = await sundown(
        ["webhooks", "create", "--org", "acme", "--url", OFFLINE_URL, "--events", "report.created"],
        env,
      );
      expect(badEvent.code).toBe(2);
      expect(badEvent.stderr).toMatch(
        /^sundown webhooks create: --events: Unknown event "report\.created"; valid events are report\.published, report\.updated, report\.deleted, member\.updated\.\n/,
      );
      const noUrl = await sundown(["webhooks", "create", "--org", "acme", "--events", "report.published"], env);
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toMatch(/^sundown webhooks create: --url is required\n/);
      const badOverlap = await sundown(["webhooks", "roll-secret", created.id, "--overlap", "2h"], env);
      expect(badOverlap.code).toBe(2);
      expect(badOverlap.stderr).toMatch(
        /^sundown webhooks roll-secret: --overlap: Choose an overlap: 0, 1h, 24h, 7d\.\n/,
      );
      const unknownOrg = await sundown(["webhooks", "list", "--org", "nope"], env);
      expect(unknownOrg).toEqual({
        code: 1,
        stdout: "",
        stderr: 'sundown: No organization "nope". Run `sundown orgs list` to see them.\n',
      });
    },
    SLOW,
  );

  it(
    "disable and enable: list shows the state and why; disabling twice says so",
    async () => {
      const of = `webhook endpoint ${created.id} (${OFFLINE_URL}) of Acme Robotics (acme)`;
      expect(await ok(["webhooks", "disable", created.id], env)).toBe(
        `Disabled ${of}: it receives nothing from now on, and what was waiting for it is given up.\n`,
      );
      expect((await list()).find((e) => e.id === created.id)).toMatchObject({
        enabled: false,
        disabled_reason: "manual",
      });
      const table = await ok(["webhooks", "list", "--org", "acme"], env);
      expect(table.split("\n").find((line) => line.startsWith(created.id))).toMatch(/\sdisabled \(manual\)\s/);
      expect(await ok(["webhooks", "disable", created.id], env)).toMatch(
        new RegExp(`^The ${literal(of)} was already disabled at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(manual\\)\\.\\n$`),
      );

      expect(await ok(["webhooks", "enable", created.id], env)).toBe(
        `Enabled ${of}: it receives events from now on.\n`,
      );
      expect((await list()).find((e) => e.id === created.id)).toMatchObject({ enabled: true, disabled_reason: null });
    },
    SLOW,
  );

  it(
    "roll-secret prints the new secret once and until when the old one signs",
    async () => {
      const startedAt = Date.now();
      const rolled = JSON.parse(await ok(["webhooks", "roll-secret", created.id, "--overlap", "24h", "--json"], env));
      expect(Object.keys(rolled)).toEqual(["id", "secret", "previous_secret_expires_at", "organization"]);
      expect(rolled.id).toBe(created.id);
      expect(rolled.secret).toMatch(SECRET);
      expect(rolled.secret).not.toBe(created.secret);
      const stops = Date.parse(rolled.previous_secret_expires_at);
      expect(stops - startedAt).toBeGreaterThan(24 * 3_600_000 - 1_000);
      expect(stops - Date.now()).toBeLessThan(24 * 3_600_000);
      expect((await list()).find((e) => e.id === created.id)?.previous_secret_expires_at).toBe(
        rolled.previous_secret_expires_at,
      );
      const table = await ok(["webhooks", "list", "--org", "acme"], env);
      expect(table.split("\n").find((line) => line.startsWith(created.id))).toContain(
        `enabled, old secret until ${rolled.previous_secret_expires_at.slice(0, 16).replace("T", " ")}`,
      );

      const now = await sundown(["webhooks", "roll-secret", created.id, "--overlap", "0"], env);
      expect(now.code).toBe(0);
      expect(now.stdout).toMatch(
        new RegExp(
          `^Rolled the signing secret of webhook endpoint ${created.id} of Acme Robotics \\(acme\\)\\.\\n\\n {2}whsec_`,
        ),
      );
      expect(now.stdout.match(SECRET)).toHaveLength(1);
      expect(now.stdout).toContain("  the old secret signs nothing from now on\n");
      expect(now.stderr).toMatch(/^Copy the signing secret now: it is shown only this once/);
      expect((await list()).find((e) => e.id === created.id)?.previous_secret_expires_at).toBeNull();
    },
    SLOW,
  );

  it(
    "ping queues a delivery the CLI does not send; it can be redelivered, except while the endpoint is off",
    async () => {
      const ping = await ok(["webhooks", "ping", created.id], env);
      expect(ping).toMatch(
        new RegExp(
          `^Queued a ping to webhook endpoint ${created.id} of Acme Robotics \\(acme\\) \\(delivery (${UUID.source})\\)\\.\\n` +
            "A running Sundown server sends it within seconds \\(one that starts later, then\\); the CLI does not\\.\\n",
        ),
      );
      const deliveryId = new RegExp(`\\(delivery (${UUID.source})\\)`).exec(ping)![1]!;

      // No attempt: nothing in this process sends webhooks.
      expect(await ok(["webhooks", "deliveries", created.id], env)).toBe(
        `No delivery attempts to webhook endpoint ${created.id} yet. Queued deliveries (events, \`sundown webhooks ping\`) show here once the server has attempted them.\n`,
      );
      expect(JSON.parse(await ok(["webhooks", "deliveries", created.id, "--json"], env))).toEqual([]);

      // The queued delivery exists: redeliver finds it by the id ping printed.
      expect(await ok(["webhooks", "redeliver", deliveryId], env)).toMatch(
        new RegExp(`^Queued delivery ${deliveryId} of Acme Robotics \\(acme\\) again, due now\\. `),
      );
      await ok(["webhooks", "disable", created.id], env);
      expect(await sundown(["webhooks", "redeliver", deliveryId], env)).toEqual({
        code: 1,
        stdout: "",
        stderr: "sundown: This endpoint is disabled; enable it before redelivering to it.\n",
      });
      await ok(["webhooks", "enable", created.id], env);
      expect(await sundown(["webhooks", "redeliver", UNKNOWN_ID], env)).toEqual({
        code: 1,
        stdout: "",
        stderr: `sundown: No webhook delivery with id ${UNKNOWN_ID}. Run \`sundown webhooks deliveries <endpoint-id>\` to see an endpoint's deliveries.\n`,
      });
    },
    SLOW,
  );

  it(
    "delete removes the endpoint; its id is then unknown to every command",
    async () => {
      expect(await ok(["webhooks", "delete", created.id], env)).toBe(
        `Deleted webhook endpoint ${created.id} of Acme Robotics (acme), and its deliveries.\n`,
      );
      expect((await list()).map((e) => e.id)).not.toContain(created.id);
      const notFound = {
        code: 1,
        stdout: "",
        stderr: `sundown: No webhook endpoint with id ${created.id}. Run \`sundown webhooks list --org <org>\` to see the endpoints.\n`,
      };
      for (const command of ["delete", "disable", "enable", "ping", "deliveries"]) {
        expect(await sundown(["webhooks", command, created.id], env), command).toEqual(notFound);
      }
      expect(await sundown(["webhooks", "roll-secret", created.id, "--overlap", "0"], env)).toEqual(notFound);
    },
    SLOW,
  );
});

describe("while the server runs on the database", () => {
  let server: RunningServer | undefined;
  let receiver: WebhookReceiver;

  // Beyond startServer's own 120 s, so a server that fails to start reports its output rather than a bare timeout.
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startServer(env);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it(
    "ping through the server's socket is sent at once, signed with the secret create printed; redeliver sends it again",
    async () => {
      const created = JSON.parse(
        await ok(
          ["webhooks", "create", "--org", "globex", "--url", receiver.url, "--events", "report.published", "--json"],
          env,
        ),
      ) as { id: string; secret: string };
      await ok(["webhooks", "ping", created.id], env);
      await until(() => receiver.received.length === 1, "the ping to arrive");
      const [request] = receiver.received;
      expect(receiver.verify(request!, created.secret)).toMatchObject({ type: "ping" });

      const attempts = await untilAttempts(created.id, 1);
      expect(attempts[0]).toMatchObject({
        type: "ping",
        attempt: 1,
        status_code: 204,
        error: null,
        state: "delivered",
      });
      const table = await ok(["webhooks", "deliveries", created.id], env);
      expect(table.split("\n")[0]).toMatch(
        /^TIME \(UTC\)\s+EVENT\s+ATTEMPT\s+HTTP\s+DURATION\s+STATE\s+DELIVERY\s+ERROR$/,
      );
      expect(table.split("\n")[1]).toMatch(
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+ping\\s+1\\s+204\\s+\\d+ ms\\s+delivered\\s+${attempts[0]!.delivery_id}\\s+-$`,
        ),
      );

      await ok(["webhooks", "redeliver", attempts[0]!.delivery_id], env);
      await until(() => receiver.received.length === 2, "the redelivery to arrive");
      // The same message again: a receiver that already took it can tell by its webhook-id.
      expect(receiver.received[1]!.headers["webhook-id"]).toBe(request!.headers["webhook-id"]);
      expect((await untilAttempts(created.id, 2))[0]).toMatchObject({ attempt: 2, state: "delivered" });
    },
    SLOW,
  );
});

async function until(condition: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The endpoint's attempts once there are `count`: the attempt is recorded just after the receiver answers. */
async function untilAttempts(endpointId: string, count: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const attempts = JSON.parse(await ok(["webhooks", "deliveries", endpointId, "--json"], env)) as {
      type: string;
      attempt: number;
      state: string;
      delivery_id: string;
    }[];
    if (attempts.length >= count || Date.now() > deadline) return attempts;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
