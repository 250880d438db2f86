// What named prepared statements buy on a direct connection: the keyed list read (key lookup + the 14 newest
// summaries, one statement, as GET /api/v1/reports sends it) run back to back on one connection, named and unnamed
// in alternating rounds, with the PostgreSQL backend's own CPU read from /proc and this process's (the pg driver's)
// from process.cpuUsage. CPU time, not wall time: a busy machine slows both alike without changing either much.
// The anchor's statement (bench/anchor: the same key and page, hand-written) runs in the same rounds, named: the
// database's floor for this read, which issue 25 holds Sundown's to (1.2×).
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
import { anchorKeyAndPage } from "./anchor/key-and-page";
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

type Contender = "named" | "unnamed" | "anchor";

async function measure(
  handle: DbHandle,
  hashedKey: string,
  contender: Contender,
): Promise<{ dbMs: number; clientMs: number }> {
  const [{ pid }] = await handle.sql.rows<{ pid: number }>(
    { name: "backend-pid", text: "SELECT pg_backend_pid() AS pid", planEachRun: true },
    [],
  );
  // A first full read teaches this process the organization's contact details (lib/data/held-contacts.ts); reads
  // made after it send the one statement a warm server sends.
  const first = await findApiKeyByHash(hashedKey, { read: reportPage({ limit: 14 }), now: new Date() });
  reportPage({ limit: 14 }).toBody(first?.data ?? null);
  const read = reportPage({ limit: 14 });
  const once =
    contender === "anchor"
      ? () => handle.sql.rows(anchorKeyAndPage, [hashedKey])
      : () => findApiKeyByHash(hashedKey, { read, now: new Date() });
  for (let i = 0; i < 50; i++) await once(); // warm plans and caches
  const db0 = backendCpuMs(pid);
  const client0 = process.cpuUsage();
  for (let i = 0; i < READS; i++) await once();
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
  const contenders: Contender[] = ["named", "unnamed", "anchor"];
  const results: Record<Contender, { dbMs: number[]; clientMs: number[] }> = {
    named: { dbMs: [], clientMs: [] },
    unnamed: { dbMs: [], clientMs: [] },
    anchor: { dbMs: [], clientMs: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Each round in another order, so a drift of the machine does not favour one contender.
    for (const contender of contenders.map((_, i) => contenders[(i + round) % contenders.length]!)) {
      const handle = openPostgres(url!, 1, contender === "unnamed" ? "unnamed" : "named");
      installDbHandle(handle);
      const { dbMs, clientMs } = await measure(handle, hashedKey, contender);
      results[contender].dbMs.push(dbMs);
      results[contender].clientMs.push(clientMs);
      await handle.close();
    }
  }
  installDbHandle(setup);
  const db = await setup.client.apiKey.deleteMany({ where: { id: key.id, organizationId: acme.id } });
  if (db.count !== 1) throw new Error("could not remove the bench key");
  await setup.close();
  console.log(`keyed list read (key + 14 newest summaries), ${READS} reads × ${ROUNDS} rounds, medians:`);
  console.log("statements  PostgreSQL CPU ms/read  driver CPU ms/read");
  for (const contender of contenders) {
    const { dbMs, clientMs } = results[contender];
    console.log(
      `${contender.padEnd(10)}  ${median(dbMs).toFixed(3).padStart(22)}  ${median(clientMs).toFixed(3).padStart(18)}`,
    );
  }
  const ratio = median(results.named.dbMs) / median(results.anchor.dbMs);
  console.log(`named ÷ anchor, PostgreSQL CPU: ${ratio.toFixed(2)}× (budget ≤ 1.2×, issue 25)`);
}

await main();
