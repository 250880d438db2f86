// What named prepared statements buy on a direct connection: the keyed list read (key lookup + the 14 newest
// summaries, one statement, as GET /api/v1/reports sends it) run back to back on one connection, named and unnamed
// in alternating rounds, with the PostgreSQL backend's own CPU read from /proc and this process's (the pg driver's)
// from process.cpuUsage. CPU time, not wall time: a busy machine slows both alike without changing either much.
//
//   DATABASE_URL=postgresql://…/db npm run bench:statements [-- --reads 2000 --rounds 6]
//
// The database must be on this machine (its backend's /proc is read) and hold the demo organizations
// (`sundown db migrate && sundown seed --demo`).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { hashApiKey } from "@/lib/auth/api-key";
import { createApiKey } from "@/lib/data/api-keys";
import { findApiKeyByHash } from "@/lib/data/key-lookup";
import { findOrganization } from "@/lib/data/organizations";
import { reportPage } from "@/lib/data/reports";
import { installDbHandle, openPostgres, type DbHandle } from "@/lib/db";
import { median } from "./stats";

const { values } = parseArgs({ options: { reads: { type: "string" }, rounds: { type: "string" } } });
const READS = Number(values.reads ?? 2000);
const ROUNDS = Number(values.rounds ?? 6);
const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required: a PostgreSQL database on this machine with the demo data.");

const ticksToMs = 10; // Linux's USER_HZ is 100 on every platform Node runs on.

function backendCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * ticksToMs;
}

async function measure(handle: DbHandle, hashedKey: string): Promise<{ dbMs: number; clientMs: number }> {
  const [{ pid }] = await handle.sql.rows<{ pid: number }>(
    { name: "backend-pid", text: "SELECT pg_backend_pid() AS pid", planEachRun: true },
    [],
  );
  const read = reportPage(14);
  for (let i = 0; i < 50; i++) await findApiKeyByHash(hashedKey, { read, now: new Date() }); // warm plans and caches
  const db0 = backendCpuMs(pid);
  const client0 = process.cpuUsage();
  for (let i = 0; i < READS; i++) await findApiKeyByHash(hashedKey, { read, now: new Date() });
  const client = process.cpuUsage(client0);
  return { dbMs: (backendCpuMs(pid) - db0) / READS, clientMs: (client.user + client.system) / 1000 / READS };
}

async function main() {
  const setup = openPostgres(url!, 1);
  installDbHandle(setup);
  const acme = await findOrganization("acme");
  if (!acme) throw new Error("no organization acme: run `sundown seed --demo` on this database first");
  const key = await createApiKey({
    organizationId: acme.id,
    name: "bench-statement-naming",
    scopes: ["reports:read"],
    expiresAt: new Date(Date.now() + 3_600_000),
    actor: { label: "bench" },
  });
  const hashedKey = hashApiKey(key.key);
  const results: Record<"named" | "unnamed", { dbMs: number[]; clientMs: number[] }> = {
    named: { dbMs: [], clientMs: [] },
    unnamed: { dbMs: [], clientMs: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const naming of round % 2 ? (["unnamed", "named"] as const) : (["named", "unnamed"] as const)) {
      const handle = openPostgres(url!, 1, naming);
      installDbHandle(handle);
      const { dbMs, clientMs } = await measure(handle, hashedKey);
      results[naming].dbMs.push(dbMs);
      results[naming].clientMs.push(clientMs);
      await handle.close();
    }
  }
  installDbHandle(setup);
  const db = await setup.client.apiKey.deleteMany({ where: { id: key.id, organizationId: acme.id } });
  if (db.count !== 1) throw new Error("could not remove the bench key");
  await setup.close();
  console.log(`keyed list read (key + 14 newest summaries), ${READS} reads × ${ROUNDS} rounds, medians:`);
  console.log("statements  PostgreSQL CPU ms/read  driver CPU ms/read");
  for (const naming of ["named", "unnamed"] as const) {
    const { dbMs, clientMs } = results[naming];
    console.log(
      `${naming.padEnd(10)}  ${median(dbMs).toFixed(3).padStart(22)}  ${median(clientMs).toFixed(3).padStart(18)}`,
    );
  }
}

await main();
