import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorEnv, runCli } from "../helpers/cli";
import { startServer, tempDataDir, type RunningServer } from "../helpers/server";

// Sending reports in as a team's tools would: an operator mints an ingest token with the CLI (through the running
// server's socket, on its embedded database), a job POSTs a batch with it over real HTTP, retries it, corrects one
// report, and the operator deletes one, rolls and revokes the token, and sets the organization's time zone.

const SLOW = 240_000;
const dataDir = tempDataDir();
const env = { SUNDOWN_DATA_DIR: dataDir, NEXTAUTH_SECRET: "ingest-process-secret-ingest-process" };
const sundown = (args: string[]) => runCli(args, operatorEnv(env));

async function ok(args: string[]): Promise<string> {
  const res = await sundown(args);
  expect(res, `sundown ${args.join(" ")}`).toMatchObject({ code: 0 });
  return res.stdout;
}

let server: RunningServer | undefined;

beforeAll(async () => {
  server = await startServer(env);
}, SLOW);

afterAll(async () => {
  await server?.stop();
});

const report = (headline: string, at: string) => ({
  scope: "org",
  generated_at: at,
  report: { headline, kpi_status: [], shipped: [{ title: headline }], silent: [], slipping: [], blockers: [] },
});

function ingest(token: string, body: unknown, query = "") {
  return fetch(`${server!.url}/ingest/v1/reports${query}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("a job sending reports with an ingest token", () => {
  it(
    "is given a token once, sends a batch, retries it, corrects a report; the operator deletes one",
    async () => {
      const created = JSON.parse(await ok(["ingest-tokens", "create", "--org", "acme", "--name", "nightly", "--json"]));
      expect(Object.keys(created)).toEqual(["id", "token", "name", "hint", "organization", "created_at"]);
      expect(created.token).toMatch(/^sdn_it_[0-9A-Za-z]{38}$/);
      const listed = await ok(["ingest-tokens", "list", "--org", "acme"]);
      expect(listed).toContain(created.id);
      expect(listed).not.toContain(created.token);

      const batch = {
        reports: [report("Monday", "2030-01-07T18:00:00-08:00"), report("Tuesday", "2030-01-08T18:00:00-08:00")],
      };
      const first = await ingest(created.token, batch);
      expect(first.status).toBe(200);
      expect(first.headers.get("x-request-id")).toBeTruthy();
      const added = (await first.json()) as { reports: { added: number; results: { id: string }[] } };
      expect(added.reports.added).toBe(2);

      const retried = await (await ingest(created.token, batch)).json();
      expect(retried.reports).toMatchObject({ added: 0, unchanged: 2, replaced: 0 });

      // The CLI import of the same reports is the same code path: the same identity.
      const file = path.join(dataDir, "batch.json");
      writeFileSync(file, JSON.stringify(batch));
      const imported = JSON.parse(await ok(["reports", "import", file, "--org", "acme", "--json"]));
      expect(imported).toMatchObject({ added: 0, unchanged: 2, replaced: 0 });
      expect(imported.reports.map((r: { id: string }) => r.id)).toEqual(added.reports.results.map((r) => r.id));

      batch.reports[1] = report("Tuesday, corrected", "2030-01-08T18:00:00-08:00");
      const conflict = await ingest(created.token, batch);
      expect(conflict.status).toBe(409);
      expect((await conflict.json()).error).toBe("conflict");
      const replaced = await (await ingest(created.token, batch, "?replace=true")).json();
      expect(replaced.reports).toMatchObject({ added: 0, unchanged: 1, replaced: 1 });

      const victim = added.reports.results[0]!.id;
      const deleted = await ok(["reports", "delete", victim]);
      expect(deleted).toContain(`Deleted report ${victim} of Acme Robotics (acme)`);
      const key = JSON.parse(
        await ok(["keys", "create", "--org", "acme", "--name", "reader", "--scopes", "reports:read", "--json"]),
      ).key;
      const gone = await fetch(`${server!.url}/api/v1/reports/${victim}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(gone.status).toBe(404);
      // Neither surface takes the other's secret.
      expect(
        (await fetch(`${server!.url}/api/v1/reports`, { headers: { Authorization: `Bearer ${created.token}` } }))
          .status,
      ).toBe(401);
      expect((await ingest(key, batch)).status).toBe(401);
    },
    SLOW,
  );

  it(
    "is refused with 413 as its body passes the limit, before the server holds it whole",
    async () => {
      const created = JSON.parse(await ok(["ingest-tokens", "create", "--org", "acme", "--name", "big", "--json"]));
      const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent++;
          if (sent > 64) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const res = await fetch(`${server!.url}/ingest/v1/reports`, {
        method: "POST",
        headers: { Authorization: `Bearer ${created.token}`, "Content-Type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit).catch((error: Error) => error);
      // The server answers as the limit passes; a client still sending may see the connection close instead.
      if (res instanceof Error) expect(sent).toBeLessThan(64);
      else {
        expect(res.status).toBe(413);
        expect((await res.json()).error).toBe("payload_too_large");
      }
    },
    SLOW,
  );

  it(
    "rolls and revokes the token; sets the organization's time zone",
    async () => {
      const created = JSON.parse(await ok(["ingest-tokens", "create", "--org", "acme", "--name", "roller", "--json"]));
      const rolled = JSON.parse(await ok(["ingest-tokens", "roll", created.id, "--json"]));
      expect(rolled.replaces).toMatchObject({ id: created.id, overlap: "0" });
      const one = report("Wednesday", "2030-01-09T18:00:00-08:00");
      expect((await ingest(created.token, one)).status).toBe(401);
      expect((await ingest(rolled.token, one)).status).toBe(200);
      expect(await ok(["ingest-tokens", "revoke", rolled.id])).toContain("the ingest endpoint refuses it from now on");
      const revoked = await ingest(rolled.token, one);
      expect(revoked.status).toBe(401);
      expect((await revoked.json()).message).toBe("The ingest token has been revoked.");

      expect(
        JSON.parse(await ok(["orgs", "update", "acme", "--time-zone", "America/Los_Angeles", "--json"])),
      ).toMatchObject({
        time_zone: "America/Los_Angeles",
        previous_time_zone: "UTC",
      });
    },
    SLOW,
  );
});
