import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReportRoute } from "@/app/api/v1/reports/[id]/route";
import { GET as listReportsRoute } from "@/app/api/v1/reports/route";
import { createApiKey } from "@/lib/data/api-keys";
import { getDb } from "@/lib/db";
import { bearer } from "../helpers/keys";
import { connectMcp, textOf } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// Report content that the import refuses can still be in the database: written before the import checked it, or
// by hand with SQL. Every path that serves report content must answer it, never overflow the stack or hang.
// The content goes in as JSON text built by concatenation, so the test itself never walks it recursively.

// 12,000 is near the deepest PostgreSQL stores with its default max_stack_depth (2 MB); 20,000 it refuses.
const DEPTHS = [3_000, 12_000];
const LONG_STRING_LENGTH = 1_000_000;

/** `{"d":{"d":…"bottom"…}}` nested `depth` objects deep, as JSON text. */
const nestedJson = (depth: number) => `${'{"d":'.repeat(depth)}"bottom"${"}".repeat(depth)}`;

const contentJson = (headline: string, deep: string) =>
  `{"headline":${JSON.stringify(headline)},"kpi_status":[],"shipped":[{"title":"deep","nested":${deep}}],` +
  `"silent":[],"slipping":[],"blockers":[],"extra":${deep}}`;

let organizationId: string;
let key: string;
let client: Client;
const stored: { id: string; headline: string }[] = [];

async function insertReport(headline: string, content: string, minute: number): Promise<string | undefined> {
  const db = await getDb();
  const id = randomUUID();
  try {
    await db.$executeRawUnsafe(
      `INSERT INTO "reports" ("id", "organization_id", "scope", "generated_at", "headline", "content")
       VALUES ($1::uuid, $2::uuid, 'org', $3::timestamptz, $4, $5::jsonb)`,
      id,
      organizationId,
      new Date(Date.UTC(2026, 10, 21, 18, minute)).toISOString(),
      headline,
      content,
    );
  } catch {
    // PostgreSQL refuses nesting past its own stack limit (about 15,000 levels by default): nothing stored, nothing to serve.
  }
  if ((await db.report.count({ where: { id } })) === 0) return undefined;
  stored.push({ id, headline });
  return id;
}

beforeAll(async () => {
  const db = await getDb();
  const slug = `stored-${randomUUID().slice(0, 8)}`;
  organizationId = (await db.organization.create({ data: { slug, name: "Stored Content" }, select: { id: true } })).id;
  for (const [i, depth] of DEPTHS.entries())
    await insertReport(`nested ${depth}`, contentJson(`nested ${depth}`, nestedJson(depth)), i);
  await insertReport(
    "long string",
    contentJson("long string", JSON.stringify("x".repeat(LONG_STRING_LENGTH))),
    DEPTHS.length,
  );
  key = (
    await createApiKey({ organizationId, name: "stored-content", scopes: ["reports:read"], actor: { label: "test" } })
  ).key;
  client = await connectMcp(bearer(key) as Record<string, string>);
}, 120_000);

afterAll(async () => {
  await client?.close();
});

/** The depth of a parsed JSON value, walked with an explicit stack. */
/** The text of a resource read's one content item. */
const resourceText = (contents: { text?: unknown; blob?: unknown }[]) => contents[0]!.text as string;

function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    max = Math.max(max, depth + 1);
    for (const inner of Object.values(node)) stack.push([inner, depth + 1]);
  }
  return max;
}

describe("content already stored that the import would refuse", () => {
  it("they were stored: 12,000 deep only on PostgreSQL, whose parser goes that deep (the embedded build's refuses)", () => {
    const onPostgres = Boolean(process.env.DATABASE_URL);
    expect(stored.map((s) => s.headline)).toEqual([
      "nested 3000",
      ...(onPostgres ? ["nested 12000"] : []),
      "long string",
    ]);
  });

  it("GET /api/v1/reports lists them", async () => {
    const res = await call(listReportsRoute, "/api/v1/reports", { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.reports.map((r: { id: string }) => r.id).sort()).toEqual(stored.map((s) => s.id).sort());
  });

  it("GET /api/v1/reports/{id} answers 200 with the content, deep parts cut to a bounded depth", async () => {
    for (const { id, headline } of stored) {
      const res = await call(getReportRoute, `/api/v1/reports/${id}`, { headers: bearer(key) }, { id });
      expect(res.status, headline).toBe(200);
      expect(res.body.report.headline).toBe(headline);
      expect(depthOf(res.body), headline).toBeLessThan(100);
    }
    const long = stored.find((s) => s.headline === "long string")!;
    const res = await call(getReportRoute, `/api/v1/reports/${long.id}`, { headers: bearer(key) }, { id: long.id });
    expect(res.body.report.extra).toHaveLength(LONG_STRING_LENGTH);
  });

  it("MCP get_report answers each with structured content and a text rendering", async () => {
    for (const { id, headline } of stored) {
      const result = await client.callTool({ name: "get_report", arguments: { id } });
      expect(result.isError, `${headline}: ${textOf(result).slice(0, 200)}`).toBeFalsy();
      expect((result.structuredContent as { report: { headline: string } }).report.headline).toBe(headline);
      expect(textOf(result)).toContain(`Headline: ${headline}`);
      expect(depthOf(result.structuredContent)).toBeLessThan(100);
    }
  });

  it("MCP list_reports lists them", async () => {
    const result = await client.callTool({ name: "list_reports", arguments: {} });
    expect(result.isError).toBeFalsy();
    for (const { headline } of stored) expect(textOf(result)).toContain(headline);
  });

  it("MCP resources/read serves each report and the latest list", async () => {
    for (const { id, headline } of stored) {
      const { contents } = await client.readResource({ uri: `sundown://reports/${id}` });
      expect(JSON.parse(resourceText(contents)).report.headline).toBe(headline);
    }
    const { contents } = await client.readResource({ uri: "sundown://reports/latest" });
    expect(JSON.parse(resourceText(contents)).count).toBe(stored.length);
  });

  it("get_briefing reads the day of them, whatever their content", async () => {
    const result = await client.callTool({
      name: "get_briefing",
      arguments: { since: "2026-11-21", until: "2026-11-21" },
    });
    expect(result.isError, textOf(result).slice(0, 200)).toBeFalsy();
    expect((result.structuredContent as { period: { reports: number } }).period.reports).toBe(stored.length);
  });
});
