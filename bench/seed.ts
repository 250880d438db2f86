// The benchmark organization: hundreds of reports, dozens of members, many keys. Written through
// lib/ (the Prisma client of lib/db, createApiKey of lib/data), so keys are real keys.
import { randomBytes, randomUUID } from "node:crypto";
import { closeDb, getDb, migratePostgres, openEmbedded, openPostgres, installDbHandle } from "@/lib/db";
import { createApiKey } from "@/lib/data/api-keys";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ReportContent } from "@/lib/schemas/reports";

interface BenchSize {
  members: number;
  reports: number;
  keys: number;
}

const BENCH_SIZE: BenchSize = { members: 40, reports: 400, keys: 50 };

export interface BenchFixture {
  organizationId: string;
  slug: string;
  /** Full secrets of active keys with every scope. */
  keys: string[];
  reportIds: string[];
  /** A report whose one item holds a 1 MB unbroken string (a pasted screenshot), older than all the others. */
  longStringReportId: string;
  size: BenchSize;
}

const DEPARTMENTS = ["Engineering", "Sales", "Support", "Operations", null] as const;
const PROJECTS = ["gripper v3", "fleet telemetry", "billing migration", "customer portal", "warehouse pilot"];

function reportContent(index: number, members: { id: string; name: string }[]): ReportContent {
  const owner = (offset: number) => members[(index + offset) % members.length]!;
  const project = (offset: number) => PROJECTS[(index + offset) % PROJECTS.length]!;
  const shipped = Array.from({ length: 1 + (index % 3) }, (_, i) => ({
    title: `Released ${project(i)}`,
    owner: owner(i).name,
    member_id: owner(i).id,
  }));
  return {
    headline: `Benchmark day ${index}: ${shipped.length} shipped, 1 slipping, ${index % 2} blockers`,
    kpi_status: [
      { name: "weekly active robots", value: 1200 + index, unit: "robots", target: 1300, status: "at_risk" },
      { name: "open bugs", value: 40 - (index % 10), unit: "bugs", target: 35, status: "off_track" },
    ],
    shipped,
    // Contact details as a report tool would store them; the API strips them from every response.
    silent: [
      {
        member: owner(7).name,
        member_id: owner(7).id,
        days_silent: 1 + (index % 4),
        email: "quiet@bench.example",
        slack_id: "UQUIET01",
      },
    ],
    slipping: [
      { item: project(2), owner: owner(3).name, days_late: 1 + (index % 6), reason: "scope grew after review" },
    ],
    blockers:
      index % 2 === 1
        ? [{ description: "CI runners saturated since Monday", owner: owner(5).name, since_days: 2 }]
        : [],
  };
}

/** One MB of base64, as a screenshot pasted into a report reads: no spaces, no line breaks. */
const LONG_STRING_BYTES = 768 * 1024;

function longStringReport(organizationId: string, generatedAt: Date) {
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
  };
}

/** Creates the organization, members, reports and keys in the process's current database. */
async function seedBenchOrganization(size: BenchSize = BENCH_SIZE): Promise<BenchFixture> {
  const db = await getDb();
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
  const day = 86_400_000;
  const newest = Date.now() - day;
  const reports = Array.from({ length: size.reports }, (_, i) => {
    const content = reportContent(i, members);
    const scope = i % 5 === 0 ? ("lead" as const) : i % 7 === 0 ? ("member" as const) : ("org" as const);
    return {
      id: randomUUID(),
      organizationId,
      scope,
      scopeTargetId: scope === "org" ? null : members[(i % (members.length - 1)) + 1]!.id,
      generatedAt: new Date(newest - Math.floor(i / 2) * day - (i % 2) * 3_600_000),
      headline: content.headline,
      content: content as Prisma.InputJsonObject,
    };
  });
  const longString = longStringReport(organizationId, new Date(newest - size.reports * day));
  await db.$transaction(
    async (tx) => {
      await tx.organization.create({
        data: { id: organizationId, slug, name: "Bench Industries" },
        select: { id: true },
      });
      await tx.member.createMany({ data: members });
      await tx.report.createMany({ data: [...reports, longString] });
      // Prisma's 5 s default is too short for 400 JSON rows on a busy machine.
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
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
  return { organizationId, slug, keys, reportIds: reports.map((r) => r.id), longStringReportId: longString.id, size };
}

/**
 * Embedded database: the server will own the data directory, so the bench seeds it first and
 * closes it (PGlite allows one process per directory).
 */
export async function seedEmbedded(dataDir: string): Promise<BenchFixture> {
  installDbHandle(await openEmbedded(dataDir, "cli"));
  try {
    return await seedBenchOrganization();
  } finally {
    await closeDb();
  }
}

/** PostgreSQL: migrate, seed, and keep the connection to remove the organization afterwards. */
export async function seedPostgres(url: string): Promise<{ fixture: BenchFixture; cleanUp(): Promise<void> }> {
  await migratePostgres(url);
  installDbHandle(openPostgres(url, 2));
  const fixture = await seedBenchOrganization();
  return {
    fixture,
    async cleanUp() {
      try {
        // Members, reports, keys and key events go with it (ON DELETE CASCADE).
        await (await getDb()).organization.delete({ where: { id: fixture.organizationId }, select: { id: true } });
      } finally {
        await closeDb();
      }
    },
  };
}

/** PostgreSQL server version, for the machine section of the results. */
export async function postgresVersion(): Promise<string> {
  const rows = await (await getDb()).$queryRawUnsafe<{ server_version: string }[]>("SHOW server_version");
  return rows[0]?.server_version ?? "unknown";
}
