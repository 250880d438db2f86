import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as cron } from "@/app/api/cron/reports/route";
import { writeUpdates } from "@/lib/data/updates";
import { getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { call } from "../helpers/request";

// On a serverless platform nothing runs between requests: Vercel Cron calls /api/cron/reports every minute with the
// CRON_SECRET as a bearer token, and the route generates the days due: here, a day long past, written as a backfill.

const CRON_SECRET = "cron-secret-cron-secret-cron-secret";
let org: { id: string };
let memberId: string;

function configure(value: string | undefined) {
  if (value === undefined) delete process.env.CRON_SECRET;
  else process.env.CRON_SECRET = value;
  resetEnvCache();
}

beforeAll(async () => {
  configure(CRON_SECRET);
  const db = await getDb();
  org = await db.organization.create({
    data: { slug: `cron-${randomUUID().slice(0, 8)}`, name: "Cron Co", timeZone: "Asia/Kolkata" },
    select: { id: true },
  });
  memberId = (
    await db.member.create({
      data: { organizationId: org.id, name: "Rhea Cron", role: "member", createdAt: new Date("2026-01-01Z") },
      select: { id: true },
    })
  ).id;
});

afterAll(async () => {
  const db = await getDb();
  await db.organization.delete({ where: { id: org.id } });
  configure(undefined);
});

describe("GET /api/cron/reports", () => {
  it("refuses a missing or wrong secret with the contract's JSON error, generating nothing", async () => {
    const db = await getDb();
    await db.$transaction((tx) =>
      writeUpdates(tx, org.id, [
        {
          memberId,
          day: "2026-10-05",
          content: { shipped: [{ title: "Backfilled" }], slipping: [], blockers: [], kpis: [], note: null },
          source: "import",
        },
      ]),
    );
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong" },
      { Authorization: `Bearer ${CRON_SECRET}x` },
    ];
    for (const headers of attempts) {
      const res = await call(cron, "/api/cron/reports", { headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "unauthorized" });
    }
    expect(await db.report.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it("generates the days due when called with the cron secret", async () => {
    const res = await call(cron, "/api/cron/reports", { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.days).toBeGreaterThanOrEqual(1);
    const db = await getDb();
    const reports = await db.report.findMany({
      where: { organizationId: org.id, generatedAt: new Date("2026-10-05T12:30:00.000Z") },
      select: { scope: true, headline: true },
      orderBy: { scope: "asc" },
    });
    expect(reports).toEqual([
      { scope: "org", headline: "Cron Co: 1 shipped, 0 slipping, 0 blockers" },
      { scope: "member", headline: "Rhea Cron: 1 shipped, 0 slipping, 0 blockers" },
    ]);
  });

  it("does not exist where no CRON_SECRET is configured", async () => {
    configure(undefined);
    try {
      const res = await call(cron, "/api/cron/reports", { headers: { Authorization: "Bearer anything" } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found" });
    } finally {
      configure(CRON_SECRET);
    }
  });
});
