import { afterAll, beforeAll, expect, it } from "vitest";
import { openPostgres, installDbHandle, type DbHandle } from "@/lib/db";
import { bearer, mintKey } from "../helpers/keys";
import { startPostgresServer, type ThrowawayPostgres } from "../helpers/postgres-server";
import { startServer, type RunningServer } from "../helpers/server";

// The database goes away under a running server (a real PostgreSQL, stopped at once) and comes back:
// the API answers 503 service_unavailable with Retry-After meanwhile, and 200 again without a restart.

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
