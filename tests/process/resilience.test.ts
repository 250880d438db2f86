import { afterAll, beforeAll, expect, it } from "vitest";
import { openPostgres, installDbHandle, type DbHandle } from "@/lib/db";
import { DATABASE_UNAVAILABLE } from "@/lib/settings/action";
import { bearer, mintKey } from "../helpers/keys";
import { startPostgresServer, type ThrowawayPostgres } from "../helpers/postgres-server";
import { createKeyActionRequest } from "../helpers/server-actions";
import { startServer, type RunningServer } from "../helpers/server";
import { send, signIn } from "../helpers/web-session";

// The database goes away under a running server (a real PostgreSQL, stopped at once) and comes back:
// the API answers 503 service_unavailable with Retry-After meanwhile, and 200 again without a restart; the
// settings pages and their actions say so on the page.

let postgres: ThrowawayPostgres;
let db: DbHandle;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  postgres = await startPostgresServer();
  const url = await postgres.createSundownDatabase("sundown_resilience");
  db = openPostgres(url, 2);
  installDbHandle(db);
  key = (await mintKey()).key;
  await db.close();
  server = await startServer({ DATABASE_URL: url });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  postgres?.destroy();
});

// A hung request fails the test through the signal rather than passing late.
const get = (path: string) =>
  fetch(`${server.url}${path}`, { headers: bearer(key), signal: AbortSignal.timeout(20_000) });

it("answers 503 with Retry-After while PostgreSQL is down, and 200 once it is back", async () => {
  expect((await get("/api/v1/reports")).status).toBe(200);

  postgres.stop();
  for (const path of ["/api/v1/me", "/api/v1/reports", "/api/v1/team"]) {
    const response = await get(path);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({
      error: "service_unavailable",
      message: "The database is unreachable or too busy to answer in time. Try again shortly.",
      request_id: response.headers.get("x-request-id"),
    });
  }
  // Discovery needs no database.
  expect((await fetch(`${server.url}/api/v1`)).status).toBe(200);

  postgres.start();
  let status = 0;
  for (let attempt = 0; attempt < 60 && status !== 200; attempt++) {
    status = (await get("/api/v1/reports")).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(status).toBe(200);
  expect((await get("/api/v1/me")).status).toBe(200);
  expect(server.process.exitCode).toBeNull();
}, 120_000);

/** Waits until the server reads the database again after postgres.start(). */
async function untilBack(
  path: string,
  headers: Record<string, string>,
  ready: (status: number, body: string) => boolean,
) {
  for (let attempt = 0; attempt < 60; attempt++) {
    const reply = await send(`${server.url}${path}`, { headers });
    if (ready(reply.status, reply.body)) return reply;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${path} did not recover`);
}

it("says on the settings pages and in their actions that the database cannot be reached, then serves them again", async () => {
  const jar = await signIn(server.url, "founder@acme.example");
  const cookie = { Cookie: jar.header() };
  expect((await send(`${server.url}/settings/api-keys`, { headers: cookie })).body).toContain("Create a key");

  postgres.stop();
  for (const [path, heading] of [
    ["/settings/api-keys", "API keys"],
    ["/settings/webhooks", "Webhooks"],
    ["/settings/webhooks/00000000-0000-4000-8000-000000000000", "Deliveries"],
  ]) {
    const page = await send(`${server.url}${path}`, { headers: cookie });
    expect(page.status, path).toBe(200);
    expect(page.body, path).toContain(`${heading} cannot be shown right now`);
    expect(page.body, path).toContain("Sundown cannot reach its database right now. Try again in a moment.");
    // Who is signed in could not be read either: the layout names nobody, and the page shows nothing it holds.
    expect(page.body, path).not.toContain("Signed in as");
    expect(page.body, path).not.toContain("Create a key");
  }
  // The create form's action, as the browser posts it: the session cannot be read, and the form says why.
  const refused = await send(`${server.url}/settings/api-keys`, {
    method: "POST",
    ...(await createKeyActionRequest(server.url, jar.header(), "during-the-outage")),
  });
  expect(refused.status).toBe(200);
  expect(refused.body).toContain(DATABASE_UNAVAILABLE);

  postgres.start();
  const back = await untilBack(
    "/settings/api-keys",
    cookie,
    (status, body) => status === 200 && body.includes("Create a key"),
  );
  expect(back.body).toContain("Signed in as");
  expect(back.body).not.toContain("during-the-outage");
}, 120_000);
