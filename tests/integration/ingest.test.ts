import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { POST as unknownIngestPath } from "@/app/ingest/[...path]/route";
import { GET as ingestDocument } from "@/app/ingest/v1/openapi.json/route";
import { GET as getIngest, POST as postIngest } from "@/app/ingest/v1/reports/route";
import { generateIngestToken } from "@/lib/auth/ingest-token";
import { createIngestToken, revokeIngestToken, rollIngestToken } from "@/lib/data/ingest-tokens";
import { listActivity } from "@/lib/data/activity";
import { getDb } from "@/lib/db";
import { deliverDue } from "@/lib/webhooks/deliver";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { startWebhookReceiver } from "../helpers/webhook-receiver";
import { bearer, mintKey } from "../helpers/keys";
import { withEnv } from "../helpers/env";
import { expectMatchesIngestOpenApi } from "../helpers/openapi-validate";
import { call } from "../helpers/request";

// POST /ingest/v1/reports: reports sent in with an ingest token, one code path with `sundown reports import`.
// Each describe block sends into an organization of its own.

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release", owner: "Mia" }],
  silent: [],
  slipping: [],
  blockers: [],
});

interface TestOrg {
  id: string;
  slug: string;
  member: string;
  token: string;
  tokenId: string;
}

const created: string[] = [];

afterAll(async () => {
  const db = await getDb();
  await db.organization.deleteMany({ where: { id: { in: created } } });
});

async function createOrg(): Promise<TestOrg> {
  const db = await getDb();
  const slug = `ingest-${randomUUID().slice(0, 8)}`;
  const org = await db.organization.create({ data: { slug, name: "Ingest Test" }, select: { id: true, slug: true } });
  created.push(org.id);
  const member = await db.member.create({
    data: { organizationId: org.id, name: "Mia Member", role: "member" },
    select: { id: true },
  });
  const token = await createIngestToken({ organizationId: org.id, name: "standup-bot", actor: { label: "test" } });
  return { ...org, member: member.id, token: token.token, tokenId: token.id };
}

const JSON_HEADERS = { "Content-Type": "application/json" };

function send(token: string | undefined, body: unknown, { query = "", headers = {} } = {}) {
  return call(postIngest, `/ingest/v1/reports${query}`, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function storedHeadlines(org: TestOrg): Promise<string[]> {
  const db = await getDb();
  const rows = await db.report.findMany({
    where: { organizationId: org.id },
    select: { headline: true },
    orderBy: { generatedAt: "asc" },
  });
  return rows.map((r) => r.headline ?? "");
}

const errorOf = (res: { body: { error: string; message: string; request_id: string }; headers: Headers }) => {
  expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
  return { error: res.body.error, message: res.body.message };
};

describe("a batch sent with an ingest token", () => {
  let org: TestOrg;
  const batch = () => ({
    reports: [
      { scope: "org", generated_at: "2026-11-20T18:00:00-08:00", report: content("Monday") },
      { scope: "member", scope_target_id: org.member, generated_at: "2026-11-20T17:00:00Z", report: content("Mia") },
    ],
  });

  beforeAll(async () => {
    org = await createOrg();
  });

  it("is stored, answered with each report's id and outcome, and readable through the API", async () => {
    const res = await send(org.token, batch());
    expect(res.status).toBe(200);
    expectMatchesIngestOpenApi("post", "/ingest/v1/reports", res.status, res.body, res.headers);
    expect(res.body).toEqual({
      reports: {
        added: 2,
        unchanged: 0,
        replaced: 0,
        results: [
          { id: expect.any(String), outcome: "added" },
          { id: expect.any(String), outcome: "added" },
        ],
      },
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("ratelimit-policy")).toBe('"per-ingest-token";q=60;w=60');
    expect(res.headers.get("ratelimit")).toMatch(/^"per-ingest-token";r=59;t=\d+$/);

    const key = await mintKeyFor(org);
    const [first] = res.body.reports.results;
    const read = await call(getReport, `/api/v1/reports/${first.id}`, { headers: bearer(key) }, { id: first.id });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ scope: "org", generated_at: "2026-11-21T02:00:00.000Z" });
  });

  it("sent again changes nothing: every report unchanged, with the stored ids", async () => {
    const before = await storedHeadlines(org);
    const first = await send(org.token, batch());
    expect(first.body.reports).toMatchObject({ added: 0, unchanged: 2, replaced: 0 });
    expect(await storedHeadlines(org)).toEqual(before);
  });

  it("with a report that differs is refused with 409, naming it; replace=true replaces it once", async () => {
    const corrected = batch();
    corrected.reports[1]!.report = content("Mia, corrected");
    const refused = await send(org.token, corrected);
    expect(refused.status).toBe(409);
    expectMatchesIngestOpenApi("post", "/ingest/v1/reports", refused.status, refused.body, refused.headers);
    const { message } = errorOf(refused);
    expect(message.split("\n")).toEqual([
      "The request conflicts with stored reports (1 problem); nothing was imported.",
      expect.stringMatching(
        /^ {2}reports\[1\]: differs from stored report [0-9a-f-]{36}, which has the same scope, scope_target_id and generated_at$/,
      ),
      "To update the stored reports that differ, send it again with ?replace=true.",
    ]);
    const replaced = await send(org.token, corrected, { query: "?replace=true" });
    expect(replaced.status).toBe(200);
    expect(replaced.body.reports).toMatchObject({ added: 0, unchanged: 1, replaced: 1 });
    expect(await storedHeadlines(org)).toEqual(["Mia, corrected", "Monday"]);
    const again = await send(org.token, corrected, { query: "?replace=true" });
    expect(again.body.reports).toMatchObject({ added: 0, unchanged: 2, replaced: 0 });
  });
});

async function mintKeyFor(org: TestOrg): Promise<string> {
  const { createApiKey } = await import("@/lib/data/api-keys");
  return (
    await createApiKey({ organizationId: org.id, name: "reader", scopes: ["reports:read"], actor: { label: "t" } })
  ).key;
}

describe("webhooks", () => {
  it("announce each added report once: a retried call sends no second report.published", async () => {
    await withEnv({ SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*" }, async () => {
      const org = await createOrg();
      const receiver = await startWebhookReceiver();
      try {
        await addWebhookEndpoint({
          organizationId: org.id,
          url: receiver.url,
          events: ["report.published"],
          actor: { label: "test" },
        });
        const batch = [
          { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") },
          { scope: "org", generated_at: "2026-11-21T18:00:00Z", report: content("Tuesday") },
        ];
        const first = await send(org.token, batch);
        const retried = await send(org.token, batch);
        expect(retried.body.reports).toMatchObject({ added: 0, unchanged: 2 });
        while ((await deliverDue()).attempted > 0);
        const announced = receiver.received.map(
          (r) => JSON.parse(r.body) as { type: string; data: { report: { id: string } } },
        );
        expect(announced.map((e) => [e.type, e.data.report.id]).sort()).toEqual(
          first.body.reports.results.map((r: { id: string }) => ["report.published", r.id]).sort(),
        );
      } finally {
        await receiver.close();
      }
    });
  });

  it("announce a replaced report once as report.updated, and write the trail's lines by the token's name", async () => {
    await withEnv({ SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*" }, async () => {
      const org = await createOrg();
      const receiver = await startWebhookReceiver();
      try {
        await addWebhookEndpoint({
          organizationId: org.id,
          url: receiver.url,
          events: ["report.updated"],
          actor: { label: "test" },
        });
        const monday = { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") };
        const [added] = (await send(org.token, [monday])).body.reports.results as { id: string }[];
        const corrected = [{ ...monday, report: content("Monday, corrected") }];
        for (const expected of [{ replaced: 1 }, { replaced: 0, unchanged: 1 }]) {
          const res = await send(org.token, corrected, { query: "?replace=true" });
          expect(res.body.reports).toMatchObject(expected);
        }
        while ((await deliverDue()).attempted > 0);
        const announced = receiver.received.map(
          (r) => JSON.parse(r.body) as { type: string; data: { report: { id: string; headline: string } } },
        );
        expect(announced.map((e) => [e.type, e.data.report.id, e.data.report.headline])).toEqual([
          ["report.updated", added!.id, "Monday, corrected"],
        ]);
        const lines = await listActivity(org.id, ["report"]);
        // The replacing call's two lines share its transaction's instant: compared in no particular order.
        expect(lines.map((l) => `${l.actor}: ${l.action}`).sort()).toEqual([
          "ingest token standup-bot: imported",
          "ingest token standup-bot: imported",
          "ingest token standup-bot: replaced",
        ]);
      } finally {
        await receiver.close();
      }
    });
  });
});

describe("one report sent alone", () => {
  it("is stored like a batch of one, and its problems are named from its own fields", async () => {
    const org = await createOrg();
    const report = { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Alone") };
    const res = await send(org.token, report);
    expect(res.status).toBe(200);
    expect(res.body.reports).toMatchObject({ added: 1, results: [{ outcome: "added" }] });

    const bad = await send(org.token, { ...report, scope: "team", report: { ...content("x"), shipped: "all" } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).message.split("\n")).toEqual([
      "The request is invalid (2 problems); nothing was imported.",
      '  scope: expected one of "org", "lead", "member"',
      "  report.shipped: expected array, received string",
    ]);
  });
});

describe("the token", () => {
  let org: TestOrg;
  const one = { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") };

  beforeAll(async () => {
    org = await createOrg();
  });

  it.each([
    ["no token", undefined, {}, "Missing ingest token. Send it as 'Authorization: Bearer <ingest token>'."],
    ["a malformed token", "sdn_it_short", {}, "The ingest token is not valid."],
    ["an unknown token", generateIngestToken().secret, {}, "The ingest token is not valid."],
    [
      "another scheme",
      undefined,
      { Authorization: "Basic Zm9vOmJhcg==" },
      "Use the Bearer scheme: 'Authorization: Bearer <ingest token>'.",
    ],
  ])("refuses %s with 401, writing nothing", async (_label, token, headers, message) => {
    const res = await send(token, one, { headers });
    expect(res.status).toBe(401);
    expectMatchesIngestOpenApi("post", "/ingest/v1/reports", res.status, res.body, res.headers);
    expect(errorOf(res)).toEqual({ error: "unauthorized", message });
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="sundown"/);
    expect(await storedHeadlines(org)).toEqual([]);
  });

  it("refuses an API key, in either header, with 401", async () => {
    const { key } = await mintKey("acme");
    const asBearer = await send(key, one);
    expect(asBearer.status).toBe(401);
    expect(errorOf(asBearer).message).toMatch(/^This is an API key: API keys read \/api\/v1 and MCP only\./);
    const asHeader = await send(undefined, one, { headers: { "X-API-Key": key } });
    expect(asHeader.status).toBe(401);
    expect(errorOf(asHeader).message).toMatch(/^X-API-Key carries API keys, which cannot send reports/);
  });

  it("is refused once revoked, and a rolled one keeps working for its overlap only", async () => {
    const own = await createOrg();
    const { token } = await rollIngestToken(own.id, own.tokenId, { overlapMs: 3_600_000, actor: { label: "t" } });
    expect((await send(own.token, one)).status).toBe(200);
    expect((await send(token.token, one)).body.reports).toMatchObject({ unchanged: 1 });
    await revokeIngestToken(own.id, own.tokenId, { label: "test" });
    const refused = await send(own.token, one);
    expect(refused.status).toBe(401);
    expect(errorOf(refused).message).toBe("The ingest token has been revoked.");
  });

  it("of another organization sends into its own: another organization's members and report ids are refused", async () => {
    const other = await createOrg();
    const memberOfOrg = {
      scope: "member",
      scope_target_id: org.member,
      generated_at: "2026-11-20T18:00:00Z",
      report: content("x"),
    };
    const res = await send(other.token, [memberOfOrg]);
    expect(res.status).toBe(400);
    expect(errorOf(res).message.split("\n")).toEqual([
      "The request is invalid (1 problem); nothing was imported.",
      `  reports[0].scope_target_id: no member with this id in organization ${other.slug}`,
    ]);
    const stored = await send(org.token, { ...one, id: randomUUID() });
    const id = stored.body.reports.results[0].id;
    const taken = await send(other.token, { ...one, id }, { query: "?replace=true" });
    expect(taken.status).toBe(409);
    expect(errorOf(taken).message).toContain("id: this id is taken by a report of another organization");
    expect(await storedHeadlines(other)).toEqual([]);
  });

  it("is refused by the read API and by MCP (401)", async () => {
    const rest = await call(listReports, "/api/v1/reports", { headers: bearer(org.token) });
    expect(rest.status).toBe(401);
    expect(rest.body.error).toBe("unauthorized");
    const mcp = await call(mcpPost, "/api/mcp", {
      method: "POST",
      headers: {
        ...bearer(org.token),
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.body.error).toBe("unauthorized");
  });

  it("has a rate limit of its own: past it, 429 with Retry-After, and the reports are not written", async () => {
    await withEnv({ SUNDOWN_INGEST_RATE_LIMIT: "2" }, async () => {
      const own = await createOrg();
      const sent = [];
      for (let i = 0; i < 3; i++) {
        sent.push(await send(own.token, { ...one, generated_at: `2026-11-2${i}T18:00:00Z` }));
      }
      expect(sent.map((r) => r.status)).toEqual([200, 200, 429]);
      const refused = sent[2]!;
      expectMatchesIngestOpenApi("post", "/ingest/v1/reports", refused.status, refused.body, refused.headers);
      expect(refused.headers.get("ratelimit-policy")).toBe('"per-ingest-token";q=2;w=60');
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      expect(await storedHeadlines(own)).toHaveLength(2);
    });
  });
});

describe("the request", () => {
  let org: TestOrg;
  const one = { scope: "org", generated_at: "2026-11-20T18:00:00Z", report: content("Monday") };

  beforeAll(async () => {
    org = await createOrg();
  });

  it("must be JSON (415)", async () => {
    const res = await send(org.token, JSON.stringify(one), {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(errorOf(res)).toEqual({
      error: "unsupported_media_type",
      message:
        "Send the reports as JSON, with 'Content-Type: application/json' (received 'application/x-www-form-urlencoded').",
    });
  });

  it("takes replace and nothing else in its query (400)", async () => {
    for (const [query, message] of [
      ["?replace=yes", "replace must be true or false."],
      ["?replace=true&replace=false", "replace is given more than once."],
      ["?org=acme", 'Unknown parameter "org": this endpoint takes replace.'],
    ]) {
      const res = await send(org.token, one, { query });
      expect(res.status, query).toBe(400);
      expect(errorOf(res)).toEqual({ error: "invalid_parameter", message });
    }
  });

  it("that is not JSON is named by line and column (400)", async () => {
    const res = await send(org.token, '{\n  "reports": [{ "scope": "org" "generated_at": "x" }]\n}');
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(
      "The request is invalid (1 problem); nothing was imported.\n  not valid JSON at line 2, column 32: Expected ',' or '}' after property value",
    );
  });

  it("with a batch name this endpoint does not take is refused, naming it", async () => {
    const res = await send(org.token, { reports: [one], updates: [] });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(
      'The request is invalid (1 problem); nothing was imported.\n  unknown field "updates": a body carries "reports" (updates and absences go to POST /ingest/v1/updates)',
    );
  });

  it("over the size limit is refused with 413, by its Content-Length or while it streams", async () => {
    const declared = await send(org.token, "[]", { headers: { "Content-Length": String(21 * 1024 * 1024) } });
    expect(declared.status).toBe(413);
    expect(errorOf(declared).error).toBe("payload_too_large");

    // No Content-Length: 21 chunks of 1 MB, refused as the 21st arrives, never held whole.
    let pulled = 0;
    const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 40) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = await call(postIngest, "/ingest/v1/reports", {
      method: "POST",
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${org.token}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(25);
    expect(await storedHeadlines(org)).toEqual([]);
  });

  it("with another method, or to another path, is answered in JSON (405, 404)", async () => {
    const get = await call(getIngest, "/ingest/v1/reports");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(errorOf(get).error).toBe("method_not_allowed");
    const elsewhere = await call(unknownIngestPath, "/ingest/v1/absences", { method: "POST" });
    expect(elsewhere.status).toBe(404);
    expect(errorOf(elsewhere).error).toBe("not_found");
  });
});

describe("the ingest OpenAPI document", () => {
  it("describes POST /ingest/v1/reports and /ingest/v1/updates only, apart from the agents' document", async () => {
    const res = await call(ingestDocument, "/ingest/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(["/ingest/v1/reports", "/ingest/v1/updates"]);
    expect(Object.keys(res.body.paths["/ingest/v1/reports"])).toEqual(["post"]);
    expect(Object.keys(res.body.paths["/ingest/v1/reports"].post.responses).sort()).toEqual(
      ["200", "400", "401", "409", "413", "415", "429", "500", "503"].sort(),
    );
    expect(res.body.components.securitySchemes.ingestToken).toMatchObject({ type: "http", scheme: "bearer" });
  });
});
