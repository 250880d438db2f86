import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { runCommand } from "@/lib/cli/commands";
import { createApiKey } from "@/lib/data/api-keys";
import { findSessionUserByEmail } from "@/lib/data/users";
import { getDb } from "@/lib/db";
import { removeReport } from "@/lib/settings/report-actions";
import { bearer } from "../helpers/keys";
import { connectMcp, rpcErrorOf, textOf, type McpTestClient } from "../helpers/mcp-client";
import { call } from "../helpers/request";
import { form } from "../helpers/settings-forms";

// `sundown reports delete <id>`: a deleted report is gone at once from REST, its markdown and MCP, its ETag no
// longer validates anything, and a cursor walk (also one holding a cursor that points at it) skips it and nothing
// else. In an organization of this file's own, with six reports an hour apart.

let org: { id: string; slug: string };
let key: string;
let ids: string[];
let client: McpTestClient;

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [],
  silent: [],
  slipping: [],
  blockers: [],
});

beforeAll(async () => {
  const db = await getDb();
  org = await db.organization.create({
    data: { slug: `deletion-${randomUUID().slice(0, 8)}`, name: "Deletion" },
    select: { id: true, slug: true },
  });
  const imported = await runCommand("reports.import", {
    org: org.slug,
    reports: Array.from({ length: 6 }, (_, i) => ({
      scope: "org",
      generated_at: new Date(Date.UTC(2026, 10, 20, 10 + i)).toISOString(),
      report: content(`Hour ${i}`),
    })),
  });
  // Newest first, as the list serves them.
  ids = imported.reports.map((r) => r.id).reverse();
  key = (
    await createApiKey({ organizationId: org.id, name: "reader", scopes: ["reports:read"], actor: { label: "t" } })
  ).key;
  client = await connectMcp(bearer(key) as Record<string, string>);
});

afterAll(async () => {
  await client?.close();
  const db = await getDb();
  await db.organization.delete({ where: { id: org.id } });
});

const list = (query: string, headers: Record<string, string> = {}) =>
  call(listReports, `/api/v1/reports${query}`, { headers: { ...(bearer(key) as Record<string, string>), ...headers } });

const read = (id: string, headers: Record<string, string> = {}) =>
  call(
    getReport,
    `/api/v1/reports/${id}`,
    { headers: { ...(bearer(key) as Record<string, string>), ...headers } },
    { id },
  );

async function walk(limit: number, cursor?: string): Promise<string[]> {
  const seen: string[] = [];
  let next: string | null | undefined = cursor;
  do {
    const page = await list(`?limit=${limit}${next ? `&cursor=${encodeURIComponent(next)}` : ""}`);
    expect(page.status).toBe(200);
    seen.push(...page.body.reports.map((r: { id: string }) => r.id));
    next = page.body.next_cursor;
  } while (next);
  return seen;
}

describe("a deleted report", () => {
  it("is gone from REST, markdown, MCP and every page of the list, at once", async () => {
    expect(await walk(2)).toEqual(ids);
    const firstPage = await list("?limit=2");
    const cursorAtVictim = firstPage.body.next_cursor as string;
    const victim = ids[1]!;
    // The first page ends with the report about to be deleted: its cursor points at it.
    expect(firstPage.body.reports.map((r: { id: string }) => r.id)).toEqual([ids[0], victim]);
    const before = await read(victim);
    expect(before.status).toBe(200);
    const reportEtag = before.headers.get("etag")!;
    const pageEtag = firstPage.headers.get("etag")!;
    const found = await client.callTool({ name: "get_report", arguments: { id: victim } });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toMatchObject({ id: victim });

    const deleted = await runCommand("reports.delete", { reportId: victim });
    expect(deleted).toEqual({
      organization: { id: org.id, slug: org.slug, name: "Deletion" },
      report: {
        id: victim,
        scope: "org",
        scope_target_id: null,
        generated_at: "2026-11-20T14:00:00.000Z",
        headline: "Hour 4",
      },
    });

    const json = await read(victim, { "If-None-Match": reportEtag });
    expect(json.status).toBe(404);
    expect(json.body).toMatchObject({ error: "not_found" });
    const markdown = await read(victim, { Accept: "text/markdown" });
    expect(markdown.status).toBe(404);
    expect(markdown.headers.get("content-type")).toBe("application/json; charset=utf-8");

    const tool = await client.callTool({ name: "get_report", arguments: { id: victim } });
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toMatch(/^not_found: /);
    const resource = await client.readResource({ uri: `sundown://reports/${victim}` }).catch((error) => error);
    expect(rpcErrorOf(resource).message).toMatch(/No report with this id/);

    const pageAgain = await list("?limit=2", { "If-None-Match": pageEtag });
    expect(pageAgain.status).toBe(200);
    expect(pageAgain.headers.get("etag")).not.toBe(pageEtag);
    expect(pageAgain.body.reports.map((r: { id: string }) => r.id)).toEqual([ids[0], ids[2]]);

    const remaining = ids.filter((id) => id !== victim);
    expect(await walk(2)).toEqual(remaining);
    // A client that held the cursor pointing at the deleted report goes on exactly where it was.
    expect(await walk(2, cursorAtVictim)).toEqual(ids.slice(2));
  });

  it("cannot be deleted twice, and an unknown id says where ids are found", async () => {
    const victim = ids[5]!;
    await runCommand("reports.delete", { reportId: victim });
    for (const id of [victim, randomUUID()]) {
      await expect(runCommand("reports.delete", { reportId: id })).rejects.toThrow(
        `No report with id ${id}. Report ids are in GET /api/v1/reports and in \`sundown reports import\`'s --json output.`,
      );
    }
  });

  it("deleted in Settings → Reports is gone at once in the same ways: REST, markdown, MCP, ETags and the walk", async () => {
    const db = await getDb();
    const member = await db.member.create({
      data: { organizationId: org.id, name: "Dana Deleter", role: "lead" },
      select: { id: true },
    });
    const email = `lead@${org.slug}.example`;
    await db.user.create({ data: { email, passwordHash: "not-used", memberId: member.id }, select: { id: true } });
    const lead = (await findSessionUserByEmail(email))!;

    const before = await walk(10);
    const victim = before[1]!;
    const found = await read(victim);
    expect(found.status).toBe(200);
    const etag = found.headers.get("etag")!;
    const page = await list("?limit=10");

    await expect(removeReport.forUser(lead, form({ reportId: victim }))).resolves.toEqual({
      status: "deleted",
      reportId: victim,
    });
    expect((await read(victim, { "If-None-Match": etag })).status).toBe(404);
    expect((await read(victim, { Accept: "text/markdown" })).status).toBe(404);
    expect(textOf(await client.callTool({ name: "get_report", arguments: { id: victim } }))).toMatch(/^not_found: /);
    const pageAgain = await list("?limit=10", { "If-None-Match": page.headers.get("etag")! });
    expect(pageAgain.status).toBe(200);
    expect(await walk(1)).toEqual(before.filter((id) => id !== victim));
  });
});
