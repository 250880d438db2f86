import { beforeAll, describe, expect, it } from "vitest";
import { GET as getRoot } from "@/app/api/v1/route";
import { GET as getMe, POST as postMe } from "@/app/api/v1/me/route";
import { GET as getReport, DELETE as deleteReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam, PUT as putTeam } from "@/app/api/v1/team/route";
import { GET as unknownApi, POST as unknownApiPost } from "@/app/api/[...path]/route";
import { createApiKey, revokeApiKey } from "@/lib/data/api-keys";
import { getDb } from "@/lib/db";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let acme: Awaited<ReturnType<typeof mintKey>>;
let globex: Awaited<ReturnType<typeof mintKey>>;

beforeAll(async () => {
  acme = await mintKey("acme");
  globex = await mintKey("globex");
});

describe("GET /api/v1/me", () => {
  it("returns the key's organization and scopes, nothing else", async () => {
    const res = await call(getMe, "/api/v1/me", { headers: bearer(acme.key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organization: { id: acme.organization.id, name: "Acme Robotics" },
      scopes: ["reports:read", "team:read"],
    });
  });

  it("works for a key with a single scope", async () => {
    const { key } = await mintKey("globex", ["team:read"]);
    const res = await call(getMe, "/api/v1/me", { headers: bearer(key) });
    expect(res.body).toEqual({ organization: { id: globex.organization.id, name: "Globex" }, scopes: ["team:read"] });
  });
});

describe("GET /api/v1/reports", () => {
  it("returns 14 summaries by default, most recent first, with count and the next page's cursor", async () => {
    const res = await call(listReports, "/api/v1/reports", { headers: bearer(acme.key) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "next_cursor", "reports"]);
    expect(res.body.next_cursor).toEqual(expect.any(String));
    expect(res.body.reports).toHaveLength(14);
    expect(res.body.count).toBe(14);
    const times = res.body.reports.map((r: { generated_at: string }) => r.generated_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("shapes every summary exactly as the contract", async () => {
    const res = await call(listReports, "/api/v1/reports?limit=50", { headers: bearer(acme.key) });
    expect(res.body.count).toBe(res.body.reports.length);
    const scopes = new Set<string>();
    for (const r of res.body.reports) {
      expect(Object.keys(r).sort()).toEqual(["generated_at", "headline", "id", "scope", "scope_target_id"]);
      expect(r.id).toMatch(UUID);
      expect(r.generated_at).toMatch(ISO_MS_Z);
      expect(["org", "lead", "member"]).toContain(r.scope);
      expect(r.scope_target_id === null || UUID.test(r.scope_target_id)).toBe(true);
      expect(r.scope === "org" ? r.scope_target_id === null : r.scope_target_id !== null).toBe(true);
      expect(r.headline === null || typeof r.headline === "string").toBe(true);
      scopes.add(r.scope);
    }
    expect([...scopes].sort()).toEqual(["lead", "member", "org"]);
  });

  it.each([1, 7, 50])("honours limit=%i", async (limit) => {
    const res = await call(listReports, `/api/v1/reports?limit=${limit}`, { headers: bearer(acme.key) });
    expect(res.body.reports).toHaveLength(limit);
    expect(res.body.count).toBe(limit);
  });

  it("pages are stable: a smaller limit is a prefix of a larger one", async () => {
    const small = await call(listReports, "/api/v1/reports?limit=5", { headers: bearer(acme.key) });
    const large = await call(listReports, "/api/v1/reports?limit=20", { headers: bearer(acme.key) });
    expect(large.body.reports.slice(0, 5)).toEqual(small.body.reports);
  });

  it("breaks ties on generated_at by id, descending", async () => {
    const db = await getDb();
    const org = await db.organization.create({
      data: { slug: `ties-${Date.now()}`, name: "Ties" },
      select: { id: true },
    });
    const { key } = await createApiKey({
      organizationId: org.id,
      name: "ties",
      scopes: ["reports:read"],
      actor: { label: "test" },
    });
    const at = new Date("2026-01-01T00:00:00.000Z");
    const ids = [
      "00000000-0000-4000-8000-00000000000a",
      "00000000-0000-4000-8000-00000000000c",
      "00000000-0000-4000-8000-00000000000b",
    ];
    // Three reports of one instant about three people (one scope, target and time is one report).
    const members = await Promise.all(
      ids.map((_, i) =>
        db.member.create({ data: { organizationId: org.id, name: `Tie ${i}`, role: "member" }, select: { id: true } }),
      ),
    );
    const content = { headline: "tie", kpi_status: [], shipped: [], silent: [], slipping: [], blockers: [] };
    await db.report.createMany({
      data: ids.map((id, i) => ({
        id,
        organizationId: org.id,
        scope: "member" as const,
        scopeTargetId: members[i]!.id,
        generatedAt: at,
        headline: "tie",
        content,
      })),
    });
    const res = await call(listReports, "/api/v1/reports", { headers: bearer(key) });
    expect(res.body.reports.map((r: { id: string }) => r.id)).toEqual([...ids].sort().reverse());
  });

  it.each(["0", "51", "-1", "1e1", "0x10", "5.0", "", "abc", "%205"])(
    "refuses limit=%s with 400 invalid_parameter",
    async (raw) => {
      const res = await call(listReports, `/api/v1/reports?limit=${raw}`, { headers: bearer(acme.key) });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_parameter");
      expect(res.body.message).toMatch(/limit.*1 to 50/);
    },
  );

  it("refuses a repeated limit", async () => {
    const res = await call(listReports, "/api/v1/reports?limit=2&limit=3", { headers: bearer(acme.key) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_parameter");
  });
});

describe("GET /api/v1/reports/{id}", () => {
  it("returns the full report with its structured content", async () => {
    const list = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(acme.key) });
    const summary = list.body.reports[0];
    const res = await call(
      getReport,
      `/api/v1/reports/${summary.id}`,
      { headers: bearer(acme.key) },
      { id: summary.id },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["generated_at", "id", "report", "scope", "scope_target_id"]);
    expect(res.body).toMatchObject({
      id: summary.id,
      scope: summary.scope,
      scope_target_id: summary.scope_target_id,
      generated_at: summary.generated_at,
    });
    for (const field of ["kpi_status", "shipped", "silent", "slipping", "blockers"])
      expect(Array.isArray(res.body.report[field])).toBe(true);
    expect(res.body.report.headline).toBe(summary.headline);
  });

  it("accepts the id in upper case", async () => {
    const list = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(acme.key) });
    const id = list.body.reports[0].id.toUpperCase();
    const res = await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(acme.key) }, { id });
    expect(res.status).toBe(200);
  });

  it("never returns contact details, even when the stored content has them", async () => {
    const list = await call(listReports, "/api/v1/reports?limit=50", { headers: bearer(acme.key) });
    for (const summary of list.body.reports) {
      const res = await call(
        getReport,
        `/api/v1/reports/${summary.id}`,
        { headers: bearer(acme.key) },
        { id: summary.id },
      );
      expect(res.text).not.toMatch(/@acme\.example|"email"|"slack_id"|"chat_handle"|"phone"/);
    }
    // The stored content does hold them (as real report tools write them): the scrubbing is what hides them.
    const db = await getDb();
    const [{ n }] = await db.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM reports WHERE organization_id = ${acme.organization.id}::uuid AND content::text LIKE '%@acme.example%'`;
    expect(n).toBeGreaterThan(0);
  });

  it("answers 404 for an unknown id", async () => {
    const id = "00000000-0000-4000-8000-000000000001";
    const res = await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(acme.key) }, { id });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found" });
  });

  it("answers another organization's report exactly like an unknown id", async () => {
    const theirs = await call(listReports, "/api/v1/reports?limit=1", { headers: bearer(globex.key) });
    const id = theirs.body.reports[0].id;
    const foreign = await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(acme.key) }, { id });
    const unknownId = "00000000-0000-4000-8000-000000000002";
    const unknown = await call(
      getReport,
      `/api/v1/reports/${unknownId}`,
      { headers: bearer(acme.key) },
      { id: unknownId },
    );
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, request_id: undefined }).toEqual({ ...unknown.body, request_id: undefined });
  });

  it.each(["nope", "123", "00000000-0000-4000-8000-00000000000"])(
    "refuses id %s with 400 invalid_parameter",
    async (id) => {
      const res = await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(acme.key) }, { id });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_parameter");
    },
  );
});

describe("GET /api/v1/team", () => {
  it("returns the roster without contact details: founders, then leads, then members", async () => {
    const res = await call(listTeam, "/api/v1/team", { headers: bearer(acme.key) });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.members.length);
    expect(res.body.count).toBeGreaterThanOrEqual(8);
    for (const m of res.body.members) {
      expect(Object.keys(m).sort()).toEqual(["active", "department", "id", "is_external", "name", "role"]);
    }
    const roles = res.body.members.map((m: { role: string }) => m.role);
    expect(roles[0]).toBe("founder");
    expect(roles.indexOf("member")).toBeGreaterThan(roles.lastIndexOf("lead"));
    expect(res.body.members.some((m: { is_external: boolean }) => m.is_external)).toBe(true);
    expect(res.body.members.some((m: { active: boolean }) => !m.active)).toBe(true);
    expect(res.body.members.some((m: { department: string | null }) => m.department === null)).toBe(true);
    expect(res.text).not.toMatch(/@acme\.example|email|chat/i);
  });

  it("never mixes organizations", async () => {
    const a = await call(listTeam, "/api/v1/team", { headers: bearer(acme.key) });
    const g = await call(listTeam, "/api/v1/team", { headers: bearer(globex.key) });
    const aIds = new Set(a.body.members.map((m: { id: string }) => m.id));
    expect(g.body.members.some((m: { id: string }) => aIds.has(m.id))).toBe(false);
    expect(g.body.members.map((m: { name: string }) => m.name)).toContain("Hank Scorpio");
    expect(a.body.members.map((m: { name: string }) => m.name)).not.toContain("Hank Scorpio");
  });
});

describe("revocation and expiry", () => {
  it("a revoked key is refused on the very next request", async () => {
    const k = await mintKey();
    expect((await call(getMe, "/api/v1/me", { headers: bearer(k.key) })).status).toBe(200);
    await revokeApiKey(k.organization.id, k.id, { label: "test" });
    const res = await call(getMe, "/api/v1/me", { headers: bearer(k.key) });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("revoked");
  });

  it("a key that expires is refused from that moment", async () => {
    const k = await mintKey("acme", ["team:read"], new Date(Date.now() + 1500));
    expect((await call(getMe, "/api/v1/me", { headers: bearer(k.key) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const res = await call(getMe, "/api/v1/me", { headers: bearer(k.key) });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("expired");
  });

  it("records last use off the request path, at most once a minute", async () => {
    const k = await mintKey();
    const db = await getDb();
    await call(getMe, "/api/v1/me", { headers: bearer(k.key) });
    await expect
      .poll(async () => (await db.apiKey.findUnique({ where: { id: k.id }, select: { lastUsedAt: true } }))?.lastUsedAt)
      .not.toBeNull();
    const first = (await db.apiKey.findUnique({ where: { id: k.id }, select: { lastUsedAt: true } }))!.lastUsedAt;
    await call(getMe, "/api/v1/me", { headers: bearer(k.key) });
    await new Promise((r) => setTimeout(r, 100));
    const second = (await db.apiKey.findUnique({ where: { id: k.id }, select: { lastUsedAt: true } }))!.lastUsedAt;
    expect(second).toEqual(first);
  });

  it("a key whose only request was refused for its scope is not 'never used'", async () => {
    const k = await mintKey("acme", ["team:read"]);
    const db = await getDb();
    const res = await call(listReports, "/api/v1/reports", { headers: bearer(k.key) });
    expect(res.status).toBe(403);
    await expect
      .poll(async () => (await db.apiKey.findUnique({ where: { id: k.id }, select: { lastUsedAt: true } }))?.lastUsedAt)
      .toBeInstanceOf(Date);
  });
});

describe("responses of every route", () => {
  it("carry X-Request-Id, echoing a sane incoming one and replacing an unsafe one", async () => {
    const echoed = await call(getMe, "/api/v1/me", {
      headers: { ...bearer(acme.key), "X-Request-Id": "trace-123.abc" },
    });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123.abc");
    const replaced = await call(getMe, "/api/v1/me", {
      headers: { ...bearer(acme.key), "X-Request-Id": "bad id\twith spaces" },
    });
    expect(replaced.headers.get("x-request-id")).toMatch(UUID);
  });

  it("keyed responses are private, revalidated, with a strong ETag and 304 on If-None-Match", async () => {
    const first = await call(listTeam, "/api/v1/team", { headers: bearer(acme.key) });
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await call(listTeam, "/api/v1/team", { headers: { ...bearer(acme.key), "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const stale = await call(listTeam, "/api/v1/team", {
      headers: { ...bearer(acme.key), "If-None-Match": '"other"' },
    });
    expect(stale.status).toBe(200);
  });

  it("send the rate-limit headers on keyed responses", async () => {
    const res = await call(getMe, "/api/v1/me", { headers: bearer(acme.key) });
    expect(res.headers.get("ratelimit-policy")).toMatch(/^"per-key";q=\d+;w=60$/);
    expect(res.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
  });

  it("answer other methods with 405 JSON and Allow: GET, HEAD", async () => {
    for (const [handler, path] of [
      [postMe, "/api/v1/me"],
      [deleteReport, "/api/v1/reports/x"],
      [putTeam, "/api/v1/team"],
    ] as const) {
      const res = await call(handler, path, { method: "POST", headers: bearer(acme.key) });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(res.body).toMatchObject({ error: "method_not_allowed" });
    }
  });

  it("unknown /api paths answer JSON 404, for any method", async () => {
    for (const handler of [unknownApi, unknownApiPost]) {
      const res = await call(handler, "/api/v2/nothing", { headers: bearer(acme.key) });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body).toMatchObject({ error: "not_found" });
    }
  });

  it("GET /api/v1 needs no key and exposes no organization data", async () => {
    const res = await call(getRoot, "/api/v1");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe("1.0.0");
    expect(res.text).not.toMatch(/Acme|Globex/);
  });

  it("GET /api/v1 ignores a query string: a public, cached document that caches and crawlers decorate", async () => {
    const plain = await call(getRoot, "/api/v1");
    const decorated = await call(getRoot, "/api/v1?utm_source=newsletter&_=1718000000");
    expect(decorated.status).toBe(200);
    expect(decorated.text).toBe(plain.text);
    expect(decorated.headers.get("etag")).toBe(plain.headers.get("etag"));
  });
});
