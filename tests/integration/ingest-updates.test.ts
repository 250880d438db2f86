import { createConfig, lintFromString } from "@redocly/openapi-core";
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as ingestDocument } from "@/app/ingest/v1/openapi.json/route";
import { GET as getUpdates, POST as postUpdates } from "@/app/ingest/v1/updates/route";
import { listActivity } from "@/lib/data/activity";
import { listAbsences } from "@/lib/data/absences";
import { createIngestToken } from "@/lib/data/ingest-tokens";
import { dayText } from "@/lib/data/updates";
import { getDb } from "@/lib/db";
import { updatesBodyExample } from "@/lib/openapi/ingest-document";
import { errorSchema } from "@/lib/schemas/common";
import { withEnv } from "../helpers/env";
import { mintKey } from "../helpers/keys";
import { expectMatchesIngestOpenApi } from "../helpers/openapi-validate";
import { call } from "../helpers/request";

// POST /ingest/v1/updates: people's updates and absences sent in with an ingest token, one code path with
// `sundown updates import` (lib/data/update-import.ts). Each describe block sends into an organization of its own,
// whose people are the OpenAPI document's example: Aisha (member), Dev (lead), Lena (member).

const PATH = "/ingest/v1/updates";
const created: string[] = [];

interface TestOrg {
  id: string;
  slug: string;
  token: string;
  aisha: string;
  dev: string;
}

afterAll(async () => {
  const db = await getDb();
  await db.organization.deleteMany({ where: { id: { in: created } } });
});

async function createOrg(): Promise<TestOrg> {
  const db = await getDb();
  const slug = `ingest-up-${randomUUID().slice(0, 8)}`;
  const org = await db.organization.create({ data: { slug, name: "Ingest Updates" }, select: { id: true } });
  created.push(org.id);
  const person = async (name: string, email: string, role: "member" | "lead") =>
    (
      await db.member.create({
        data: { organizationId: org.id, name, role, email },
        select: { id: true },
      })
    ).id;
  const aisha = await person("Aisha Khan", "aisha@acme.example", "member");
  const dev = await person("Dev Patel", "dev@acme.example", "lead");
  await person("Lena Vogel", "lena@acme.example", "member");
  const token = await createIngestToken({ organizationId: org.id, name: "standup-bot", actor: { label: "test" } });
  return { id: org.id, slug, token: token.token, aisha, dev };
}

function send(token: string | undefined, body: unknown, { query = "", headers = {} } = {}) {
  return call(postUpdates, `${PATH}${query}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function storedUpdates(org: TestOrg) {
  const db = await getDb();
  const rows = await db.update.findMany({
    where: { organizationId: org.id },
    select: { memberId: true, day: true, content: true, source: true },
    orderBy: [{ day: "asc" }, { memberId: "asc" }],
  });
  return rows.map((r) => ({ ...r, day: dayText(r.day) }));
}

const errorOf = (res: { status: number; body: { error: string; message: string } }) => ({
  status: res.status,
  error: res.body.error,
  message: res.body.message,
});

describe("a batch sent with an ingest token", () => {
  let org: TestOrg;

  beforeAll(async () => {
    org = await createOrg();
  });

  it("is stored as the OpenAPI document's example says, answered with counts", async () => {
    const res = await send(org.token, updatesBodyExample);
    expect(res.status).toBe(200);
    expectMatchesIngestOpenApi("post", PATH, res.status, res.body, res.headers);
    expect(res.body).toEqual({
      updates: { added: 2, unchanged: 0, replaced: 0 },
      absences: { added: 1, unchanged: 0 },
      dry_run: false,
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("ratelimit-policy")).toBe('"per-ingest-token";q=60;w=60');
    const stored = await storedUpdates(org);
    expect(stored.find((u) => u.memberId === org.aisha)).toEqual({
      memberId: org.aisha,
      day: "2026-11-20",
      source: "ingest",
      content: {
        shipped: [{ title: "Released gripper firmware 2.3" }],
        slipping: [{ item: "Warehouse pilot", reason: "waiting on the site survey", due: "2026-11-18" }],
        blockers: [{ description: "Vendor parts held at customs" }],
        kpis: [],
        note: "Back on the pilot tomorrow.",
      },
    });
    const [line] = await listActivity(org.id, ["updates"]);
    expect(line).toMatchObject({ actor: "ingest token standup-bot", action: "imported" });
  });

  it("sent again changes nothing; a changed day replaces the stored one", async () => {
    const before = await storedUpdates(org);
    const again = await send(org.token, updatesBodyExample);
    expect(again.body).toEqual({
      updates: { added: 0, unchanged: 2, replaced: 0 },
      absences: { added: 0, unchanged: 1 },
      dry_run: false,
    });
    expect(await storedUpdates(org)).toEqual(before);
    const corrected = { updates: [{ date: "2026-11-20", member_id: org.aisha, shipped: ["Only this"] }] };
    const replaced = await send(org.token, corrected);
    expect(replaced.body.updates).toEqual({ added: 0, unchanged: 0, replaced: 1 });
    const aisha = (await storedUpdates(org)).find((u) => u.memberId === org.aisha);
    expect(aisha!.content).toEqual({
      shipped: [{ title: "Only this" }],
      slipping: [],
      blockers: [],
      kpis: [],
      note: null,
    });
  });

  it("with dry_run=true is checked and counted, and nothing is written", async () => {
    const own = await createOrg();
    const res = await send(own.token, updatesBodyExample, { query: "?dry_run=true" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      updates: { added: 2, unchanged: 0, replaced: 0 },
      absences: { added: 1, unchanged: 0 },
      dry_run: true,
    });
    expect(await storedUpdates(own)).toEqual([]);
    expect(await listAbsences(own.id)).toEqual([]);
  });

  it("naming people not on the roster, a day to come or KPIs from a member is refused whole (400)", async () => {
    const own = await createOrg();
    const res = await send(own.token, {
      updates: [
        { date: "2026-11-20", email: "AISHA@acme.example", shipped: ["Fine"] },
        { date: "2026-11-20", email: "nobody@acme.example", shipped: ["Who?"] },
        { date: "2999-01-01", email: "dev@acme.example", shipped: ["Later"] },
        { date: "2026-11-19", email: "aisha@acme.example", kpis: [{ name: "NPS", value: 3 }] },
      ],
      absences: [{ email: "lena@acme.example", from: "2026-11-20", to: "2026-11-19" }],
    });
    expectMatchesIngestOpenApi("post", PATH, res.status, res.body, res.headers);
    expect(errorOf(res)).toMatchObject({ status: 400, error: "invalid_parameter" });
    expect(res.body.message.split("\n")).toEqual([
      "The request is invalid (4 problems); nothing was imported.",
      "  updates[1], email: no one of the roster has this address (see `sundown members list`)",
      expect.stringMatching(/^ {2}updates\[2\], date: is after today \(\d{4}-\d\d-\d\d in UTC\)/),
      "  updates[3], kpis: only founders and leads report KPI values; Aisha Khan is a member",
      "  absences[0], to: must be on or after 2026-11-20, the absence's first day",
    ]);
    expect(await storedUpdates(own)).toEqual([]);
  });
});

describe("the checks, in order", () => {
  let org: TestOrg;
  const one = { updates: [{ date: "2026-11-20", email: "aisha@acme.example", shipped: ["Fine"] }] };

  beforeAll(async () => {
    org = await createOrg();
  });

  it("token (401) before media type, media type (415) before query, query (400) before size (413), size before body", async () => {
    const form = { "Content-Type": "text/csv" };
    const huge = { "Content-Length": String(6 * 1024 * 1024) };
    const noToken = await send(undefined, "not json", { query: "?colour=red", headers: { ...form, ...huge } });
    expect(errorOf(noToken)).toMatchObject({ status: 401, error: "unauthorized" });
    expectMatchesIngestOpenApi("post", PATH, noToken.status, noToken.body, noToken.headers);
    const media = await send(org.token, "not json", { query: "?colour=red", headers: { ...form, ...huge } });
    expect(errorOf(media)).toEqual({
      status: 415,
      error: "unsupported_media_type",
      message: "Send the updates as JSON, with 'Content-Type: application/json' (received 'text/csv').",
    });
    expectMatchesIngestOpenApi("post", PATH, media.status, media.body, media.headers);
    const query = await send(org.token, "not json", { query: "?colour=red", headers: huge });
    expect(errorOf(query)).toEqual({
      status: 400,
      error: "invalid_parameter",
      message: 'Unknown parameter "colour": this endpoint takes dry_run.',
    });
    for (const [q, message] of [
      ["?dry_run=yes", "dry_run must be true or false."],
      ["?dry_run=true&dry_run=false", "dry_run is given more than once."],
      ["?replace=true", 'Unknown parameter "replace": this endpoint takes dry_run.'],
    ]) {
      expect(errorOf(await send(org.token, one, { query: q }))).toMatchObject({ status: 400, message });
    }
    const size = await send(org.token, "not json", { headers: huge });
    expect(errorOf(size)).toMatchObject({ status: 413, error: "payload_too_large" });
    expectMatchesIngestOpenApi("post", PATH, size.status, size.body, size.headers);
    const body = await send(org.token, "not json");
    expect(errorOf(body)).toMatchObject({ status: 400, error: "invalid_parameter" });
    expect(body.body.message).toMatch(
      /^The request is invalid \(1 problem\); nothing was imported\.\n {2}file: not valid JSON: /,
    );
    expect(await storedUpdates(org)).toEqual([]);
  });

  it("rate limit (429) comes after the token and before everything else", async () => {
    await withEnv({ SUNDOWN_INGEST_RATE_LIMIT: "1" }, async () => {
      const own = await createOrg();
      expect((await send(own.token, one)).status).toBe(200);
      const limited = await send(own.token, "not json", { headers: { "Content-Type": "text/plain" } });
      expect(errorOf(limited)).toMatchObject({ status: 429, error: "rate_limited" });
      expect(limited.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    });
  });

  it("refuses an API key, and another organization's member ids", async () => {
    const { key } = await mintKey("acme");
    expect(errorOf(await send(key, one))).toMatchObject({ status: 401, error: "unauthorized" });
    const other = await createOrg();
    const res = await send(other.token, { updates: [{ date: "2026-11-20", member_id: org.aisha, note: "x" }] });
    expect(errorOf(res)).toMatchObject({ status: 400 });
    expect(res.body.message).toContain("updates[0], member_id: no member of the organization has this id");
  });

  it("answers another method with 405 in JSON", async () => {
    const res = await call(getUpdates, PATH);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.body.error).toBe("method_not_allowed");
  });

  it("answers any malformed body with a JSON 400, never a 500, and writes nothing", async () => {
    await withEnv({ SUNDOWN_INGEST_RATE_LIMIT: "100000" }, async () => {
      const own = await createOrg();
      const item = fc.oneof(fc.string(), fc.jsonValue(), fc.record({ title: fc.jsonValue() }, { requiredKeys: [] }));
      const update = fc.record(
        {
          date: fc.oneof(fc.constant("2026-11-20"), fc.string(), fc.jsonValue()),
          email: fc.oneof(fc.constant("aisha@acme.example"), fc.string(), fc.jsonValue()),
          member_id: fc.oneof(fc.uuid(), fc.jsonValue()),
          shipped: fc.oneof(fc.array(item), fc.jsonValue()),
          slipping: fc.oneof(fc.array(fc.record({ item: fc.string(), due: fc.string() })), fc.jsonValue()),
          kpis: fc.oneof(fc.array(fc.record({ name: fc.string(), value: fc.jsonValue() })), fc.jsonValue()),
          note: fc.jsonValue(),
        },
        { requiredKeys: [] },
      );
      const body = fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc.record({ updates: fc.array(update, { maxLength: 4 }) }).map((v) => JSON.stringify(v)),
        fc
          .record({ absences: fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 3 }) })
          .map((v) => JSON.stringify(v)),
        fc.string(),
      );
      await fc.assert(
        fc.asyncProperty(body, async (text) => {
          const res = await send(own.token, text);
          // The one good outcome a random body may reach: a whole valid update for Aisha; everything else is 400.
          if (res.status === 200) return;
          expect(res.status).toBe(400);
          expect(errorSchema.safeParse(res.body).success).toBe(true);
          expect(res.body.error).toBe("invalid_parameter");
        }),
        { numRuns: Number(process.env.SUNDOWN_FUZZ_RUNS ?? 150) },
      );
      const stored = await storedUpdates(own);
      expect(stored.every((u) => u.memberId === own.aisha && u.day === "2026-11-20")).toBe(true);
    });
  }, 120_000);
});

describe("the ingest OpenAPI document", () => {
  it("describes POST /ingest/v1/updates beside /ingest/v1/reports", async () => {
    const res = await call(ingestDocument, "/ingest/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(["/ingest/v1/reports", PATH]);
    expect(Object.keys(res.body.paths[PATH].post.responses).sort()).toEqual(
      ["200", "400", "401", "413", "415", "429", "500", "503"].sort(),
    );
    expect(res.body.paths[PATH].post.requestBody.content["application/json"].example).toEqual(updatesBodyExample);
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: JSON.stringify(res.body),
      absoluteRef: "/ingest/v1/openapi.json",
      config,
    });
    const errors = problems
      .filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });
});
