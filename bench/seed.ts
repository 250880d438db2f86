// The benchmark organization: 100,000 reports over two years, dozens of members, many keys. Members, keys and
// the one oversized report are written through lib/ (the Prisma client of lib/db, createApiKey of lib/data), so
// keys are real keys; the report history by one set-based statement (bench/history-seed.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { closeDb, getDb, migratePostgres, openEmbedded, openPostgres, installDbHandle } from "@/lib/db";
import { createApiKey } from "@/lib/data/api-keys";
import { seedDemoOnFirstStart } from "@/lib/demo/first-start";
import type { KnownContacts } from "@/lib/data/known-contact-matcher";
import { loadKnownContacts } from "@/lib/data/known-contacts";
import { reportSearchText, SEARCH_TEXT_VERSION } from "@/lib/data/report-search-text";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ReportContent } from "@/lib/schemas/reports";
import { COMMON_WORD, insertReportHistory, type Execute } from "./history-seed";
import { writeReportItems } from "@/lib/data/report-items";

export interface BenchSize {
  members: number;
  reports: number;
  /** Days the report history covers, ending yesterday (UTC). */
  days: number;
  keys: number;
}

const BENCH_SIZE: BenchSize = { members: 40, reports: 100_000, days: 730, keys: 50 };

export interface BenchFixture {
  organizationId: string;
  slug: string;
  /** Full secrets of active keys with every scope. */
  keys: string[];
  /** The newest reports, newest first. */
  reportIds: string[];
  /** A report whose one item holds a 1 MB unbroken string (a pasted screenshot), older than all the others. */
  longStringReportId: string;
  /** The newest day of the history (UTC), YYYY-MM-DD; the history covers size.days days up to it. */
  newestDay: string;
  /** Members with the member role, each the target of member-scoped reports. */
  memberIds: string[];
  /** A word in most reports' text, and the share of the organization's reports that match it. */
  commonWord: { word: string; share: number };
  size: BenchSize;
  /** How long writing the organization took, in seconds. */
  seedSeconds: number;
}

const DEPARTMENTS = ["Engineering", "Sales", "Support", "Operations", null] as const;

/** One MB of base64, as a screenshot pasted into a report reads: no spaces, no line breaks. */
const LONG_STRING_BYTES = 768 * 1024;

function longStringReport(organizationId: string, generatedAt: Date, contacts: KnownContacts) {
  const content: ReportContent = {
    headline: "Benchmark: a pasted screenshot",
    kpi_status: [],
    shipped: [],
    silent: [],
    slipping: [],
    blockers: [
      { description: "Dashboard renders blank", screenshot: randomBytes(LONG_STRING_BYTES).toString("base64") },
    ],
  };
  return {
    id: randomUUID(),
    organizationId,
    scope: "org" as const,
    generatedAt,
    headline: content.headline,
    content: content as Prisma.InputJsonObject,
    // As lib/data/import-reports.ts writes it.
    searchText: reportSearchText(content, contacts),
    searchTextVersion: SEARCH_TEXT_VERSION,
  };
}

const DAY_MS = 86_400_000;

/**
 * Creates the organization, members, reports and keys in the process's current database. `execute` runs the
 * history's one long statement; by default through the process's Prisma client.
 */
export async function seedBenchOrganization(size: BenchSize = BENCH_SIZE, execute?: Execute): Promise<BenchFixture> {
  const started = performance.now();
  const db = await getDb();
  const run: Execute = execute ?? ((sql, values) => db.$executeRawUnsafe(sql, ...values));
  const organizationId = randomUUID();
  const slug = `bench-${organizationId.slice(0, 8)}`;
  const members = Array.from({ length: size.members }, (_, i) => ({
    id: randomUUID(),
    organizationId,
    name: `Bench Member ${String(i + 1).padStart(2, "0")}`,
    role: i === 0 ? ("founder" as const) : i % 8 === 1 ? ("lead" as const) : ("member" as const),
    department: DEPARTMENTS[i % DEPARTMENTS.length],
    isExternal: i % 13 === 12,
    active: i % 17 !== 16,
    email: `member${i + 1}@bench.example`,
    chatHandle: `@bench${i + 1}`,
  }));
  // The newest day is yesterday (UTC), so every report lies in the past.
  const newestDay = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS);
  await db.organization.create({ data: { id: organizationId, slug, name: "Bench Industries" }, select: { id: true } });
  await db.member.createMany({ data: members });
  const contacts = await loadKnownContacts(db, organizationId);
  const longString = longStringReport(organizationId, new Date(newestDay.getTime() - size.days * DAY_MS), contacts);
  await db.report.create({ data: longString, select: { id: true } });
  await insertReportHistory(run, {
    organizationId,
    reports: size.reports,
    days: size.days,
    newestDay: newestDay.toISOString(),
    owners: members,
    leads: members.filter((m) => m.role === "lead").map((m) => m.id),
    members: members.filter((m) => m.role === "member").map((m) => m.id),
    contacts,
  });
  // The briefing's rows, as an import writes them with each report.
  await writeReportItems((sql, ...values) => run(sql, values), organizationId);
  const keys: string[] = [];
  for (let i = 0; i < size.keys; i++) {
    const created = await createApiKey({
      organizationId,
      name: `bench-${i + 1}`,
      scopes: ["reports:read", "team:read"],
      actor: { label: "bench" },
    });
    keys.push(created.key);
  }
  const newest = await db.report.findMany({
    where: { organizationId },
    orderBy: [{ generatedAt: "desc" }, { id: "desc" }],
    take: 16,
    select: { id: true },
  });
  const [counts] = await db.$queryRawUnsafe<{ matching: number; total: number }[]>(
    `SELECT count(*) FILTER (WHERE search_vector @@ websearch_to_tsquery('english', $2))::int AS matching,
       count(*)::int AS total
     FROM reports WHERE organization_id = $1::uuid`,
    organizationId,
    COMMON_WORD,
  );
  return {
    organizationId,
    slug,
    keys,
    reportIds: newest.map((r) => r.id),
    longStringReportId: longString.id,
    newestDay: newestDay.toISOString().slice(0, 10),
    memberIds: members.filter((m) => m.role === "member").map((m) => m.id),
    commonWord: { word: COMMON_WORD, share: counts!.matching / counts!.total },
    size,
    seedSeconds: (performance.now() - started) / 1000,
  };
}

/**
 * Embedded database: the server will own the data directory, so the bench seeds it first and
 * closes it (PGlite allows one process per directory).
 */
export async function seedEmbedded(dataDir: string): Promise<BenchFixture> {
  // As the server would on its first start: the demo organizations beside the bench's.
  const handle = await openEmbedded(dataDir, "cli");
  await seedDemoOnFirstStart(handle);
  installDbHandle(handle);
  try {
    return await seedBenchOrganization();
  } finally {
    await closeDb();
  }
}

/** Deletes the bench organization (members, reports, keys and key events go with it: ON DELETE CASCADE), then
 * closes the process's database handle. */
export async function removeBenchOrganization(url: string, organizationId: string): Promise<void> {
  try {
    await withConnection(url, (execute) => execute("DELETE FROM organizations WHERE id = $1::uuid", [organizationId]));
  } finally {
    await closeDb();
  }
}

/**
 * Runs `work` on a connection of its own, without the API's statement timeout (DATABASE_TIMEOUT_MS): writing and
 * removing a history each take one long statement, which a busy machine makes outlive it.
 */
export async function withConnection<T>(url: string, work: (execute: Execute) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work((sql, values) => client.query(sql, values));
  } finally {
    await client.end();
  }
}

/** PostgreSQL: migrate, seed, and remove the organization afterwards. */
export async function seedPostgres(url: string): Promise<{ fixture: BenchFixture; cleanUp(): Promise<void> }> {
  await migratePostgres(url);
  installDbHandle(openPostgres(url, 2));
  const fixture = await withConnection(url, async (execute) => {
    const seeded = await seedBenchOrganization(BENCH_SIZE, execute);
    // The table as autovacuum keeps it on a server that grew this history: fresh statistics, the search index's
    // pending list merged, and no dead rows of earlier bench runs on this database (a search through the index
    // would visit them). The embedded database has no autovacuum, so there the server is left to its own devices,
    // as a deployment would be.
    const started = performance.now();
    await execute("VACUUM ANALYZE reports", []);
    // And the briefing's items, written in one statement by the seed (an import's items are a batch's at most).
    await execute("VACUUM ANALYZE report_items", []);
    return { ...seeded, seedSeconds: seeded.seedSeconds + (performance.now() - started) / 1000 };
  });
  return {
    fixture,
    cleanUp: () => removeBenchOrganization(url, fixture.organizationId),
  };
}

/**
 * PostgreSQL, the organization seeded once and kept (`npm run bench -- --keep-seed <file>`): the fixture in `file` when
 * its organization is still in the database, else a newly seeded one, written there. Never removed; the file holds
 * the bench keys' secrets, so keep it beside the bench's other output (bench/out, not committed).
 */
export async function keptSeedPostgres(url: string, file: string): Promise<BenchFixture> {
  if (existsSync(file)) {
    const fixture = JSON.parse(readFileSync(file, "utf8")) as BenchFixture;
    await migratePostgres(url);
    installDbHandle(openPostgres(url, 2));
    const found = await (await getDb()).organization.count({ where: { id: fixture.organizationId } });
    if (found > 0) return { ...fixture, seedSeconds: 0 };
    await closeDb();
  }
  const { fixture } = await seedPostgres(url);
  writeFileSync(file, JSON.stringify(fixture));
  return fixture;
}

/** PostgreSQL server version, for the machine section of the results. */
export async function postgresVersion(): Promise<string> {
  const rows = await (await getDb()).$queryRawUnsafe<{ server_version: string }[]>("SHOW server_version");
  return rows[0]?.server_version ?? "unknown";
}
