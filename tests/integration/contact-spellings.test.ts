import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { createApiKey } from "@/lib/data/api-keys";
import { importReports } from "@/lib/data/import-reports";
import type { OrganizationRef } from "@/lib/data/organizations";
import { getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { deliverDue } from "@/lib/webhooks/deliver";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { INVISIBLE_CHARACTERS, spelledAddress, spelledPhone, spells } from "../helpers/contact-arbitraries";
import { bearer } from "../helpers/keys";
import { connectMcp, MCP_ERAS, textOf, type McpTestClient } from "../helpers/mcp-client";
import { call } from "../helpers/request";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// Issue 34: generated spellings of a member's own address and of phone numbers (fast-check, fixed seed), stored in
// reports both as the import writes them and as an older release or another tool left them in the table (with
// their invisible characters), then read back through every surface that carries report text: REST JSON, the
// markdown of a report, MCP tools, resources and prompts in both eras, and webhook bodies. No surface may still
// spell any of them, or carry an invisible, bidirectional-control or tag character; the people's names stay.

const id = randomUUID();
const slug = `spellings-${id.slice(0, 8)}`;
const ADDRESS = `maya.chen@${slug}.example`;
const PHONES = [
  { countryCode: "44", groups: ["20", "7946", "0958"], national: "2079460958", number: 442079460958 },
  { countryCode: "1", groups: ["202", "555", "0143"], national: "2025550143", number: 12025550143 },
];
const DETAILS = [ADDRESS, ...PHONES.map((phone) => phone.national)];

const SEED = 34;
const spellings = [
  ...fc.sample(spelledAddress(ADDRESS), { seed: SEED, numRuns: 60 }),
  ...PHONES.flatMap((phone) => fc.sample(spelledPhone(phone.countryCode, phone.groups), { seed: SEED, numRuns: 30 })),
];
// Each report holds a handful, in its headline (lists, webhooks), in item text and as keys; and a phone as a number.
const PER_REPORT = 8;
const NAMES = ["Maya Chen", "Dev Patel"];
// Yesterday: inside every period the prompts read.
const generatedAt = new Date(Date.now() - 86_400_000);
const day = generatedAt.toISOString().slice(0, 10);

function contentOf(batch: string[], index: number) {
  const invisible = INVISIBLE_CHARACTERS[index % INVISIBLE_CHARACTERS.length]!;
  return {
    headline: `Maya Chen: write ${batch.join(" or ")}`,
    kpi_status: [{ name: "callback", value: PHONES[index % PHONES.length]!.number }],
    shipped: [{ title: `Billing export${invisible}`, owner: "Dev Patel", notes: batch.join(", ") }],
    silent: [{ member: "Maya Chen", days: 2 }],
    slipping: [
      { item: "Search", owner: "Dev Patel", by_contact: Object.fromEntries(batch.map((spelled) => [spelled, "x"])) },
    ],
    blockers: [{ title: `Waiting on\u202e legal ${invisible}`, owner: "Maya Chen" }],
  };
}

const batches = Array.from({ length: Math.ceil(spellings.length / PER_REPORT) }, (_, i) =>
  spellings.slice(i * PER_REPORT, (i + 1) * PER_REPORT),
);
const imported = batches.filter((_, i) => i % 2 === 0);
const storedDirectly = batches.filter((_, i) => i % 2 === 1);
const reportIds: string[] = [];

let organization: OrganizationRef;
let key: string;
let receiver: WebhookReceiver;
const clients: Partial<Record<(typeof MCP_ERAS)[number], McpTestClient>> = {};

beforeAll(async () => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
  resetEnvCache();
  const db = await getDb();
  organization = await db.organization.create({
    data: { slug, name: "Spellings" },
    select: { id: true, slug: true, name: true },
  });
  await db.member.create({
    data: { organizationId: organization.id, name: "Maya Chen", role: "founder", email: ADDRESS, chatHandle: "@mchen" },
  });
  receiver = await startWebhookReceiver();
  await addWebhookEndpoint({
    organizationId: organization.id,
    url: receiver.url,
    events: ["report.published"],
    actor: { label: "test" },
  });
  const at = (n: number) => new Date(generatedAt.getTime() + n * 1000).toISOString();
  const importedReports = imported.map((batch, n) => ({
    id: randomUUID(),
    scope: "org" as const,
    scope_target_id: null,
    generated_at: at(n),
    report: contentOf(batch, n) as never,
  }));
  await importReports(organization, importedReports, { actor: { label: "test" } });
  reportIds.push(...importedReports.map((r) => r.id));
  for (const [n, batch] of storedDirectly.entries()) {
    const reportId = randomUUID();
    const content = contentOf(batch, n + imported.length);
    await db.$executeRaw`
      INSERT INTO reports (id, organization_id, scope, generated_at, headline, content) VALUES
        (${reportId}::uuid, ${organization.id}::uuid, 'org', ${at(imported.length + n)}::timestamptz,
         ${content.headline}, ${JSON.stringify(content)}::jsonb)`;
    reportIds.push(reportId);
  }
  key = (
    await createApiKey({
      organizationId: organization.id,
      name: "spellings",
      scopes: ["reports:read"],
      actor: { label: "test" },
    })
  ).key;
  for (const era of MCP_ERAS) clients[era] = await connectMcp(bearer(key) as Record<string, string>, undefined, era);
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((client) => client.close()));
  await receiver?.close();
  await (await getDb()).organization.delete({ where: { id: organization.id } });
  delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  resetEnvCache();
});

/** Nothing in `served` spells a detail, or holds an invisible character; `names` are still there. */
function expectNothingLeft(surface: string, served: string, names: string[] = NAMES) {
  for (const detail of DETAILS) expect(spells(served, detail), `${surface} spells ${detail}`).toBe(false);
  for (const char of [...INVISIBLE_CHARACTERS, "\u202e", "\u202c"]) {
    expect(served.includes(char), `${surface} holds U+${char.codePointAt(0)!.toString(16)}`).toBe(false);
  }
  for (const name of names) expect(served, surface).toContain(name);
}

it(`stores ${spellings.length} spellings in ${batches.length} reports, half imported, half as older data left them`, () => {
  expect(spellings.length).toBe(120);
  expect(reportIds).toHaveLength(batches.length);
});

describe("REST", () => {
  it("the list's headlines", async () => {
    const res = await call(listReports, "/api/v1/reports?limit=50", { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.reports).toHaveLength(batches.length);
    expectNothingLeft("GET /api/v1/reports", res.text, ["Maya Chen"]);
  });

  it("each report, as JSON and as markdown", async () => {
    for (const reportId of reportIds) {
      const json = await call(getReport, `/api/v1/reports/${reportId}`, { headers: bearer(key) }, { id: reportId });
      expect(json.status).toBe(200);
      expectNothingLeft(`GET /api/v1/reports/${reportId}`, json.text);
      const markdown = await call(
        getReport,
        `/api/v1/reports/${reportId}`,
        { headers: { ...bearer(key), Accept: "text/markdown" } },
        { id: reportId },
      );
      expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
      expectNothingLeft(`markdown of ${reportId}`, markdown.text);
    }
  });
});

describe.each(MCP_ERAS)("MCP %s", (era) => {
  const client = () => clients[era]!;

  it("list_reports and get_report, structured and as text", async () => {
    const list = await client().callTool({ name: "list_reports", arguments: { limit: 50 } });
    expect(list.isError).toBeFalsy();
    expectNothingLeft("list_reports", JSON.stringify(list), ["Maya Chen"]);
    for (const reportId of reportIds) {
      const item = await client().callTool({ name: "get_report", arguments: { id: reportId } });
      expect(item.isError).toBeFalsy();
      expectNothingLeft(`get_report ${reportId}`, JSON.stringify(item.structuredContent));
      expectNothingLeft(`get_report ${reportId} text`, textOf(item));
    }
  });

  it("resources: the latest reports, each report, the day's reports", async () => {
    expectNothingLeft("latest", JSON.stringify(await client().readResource({ uri: "sundown://reports/latest" })), [
      "Maya Chen",
    ]);
    for (const reportId of reportIds) {
      const read = await client().readResource({ uri: `sundown://reports/${reportId}` });
      expectNothingLeft(`sundown://reports/${reportId}`, JSON.stringify(read));
    }
    const dayRead = await client().readResource({ uri: `sundown://reports/day/${day}` });
    expectNothingLeft(`sundown://reports/day/${day}`, JSON.stringify(dayRead), ["Maya Chen"]);
  });

  it("prompts: lead_brief and period_rollup", async () => {
    const brief = await client().getPrompt({ name: "lead_brief", arguments: { count: "14" } });
    expectNothingLeft("lead_brief", JSON.stringify(brief));
    const rollup = await client().getPrompt({ name: "period_rollup", arguments: { days: "3" } });
    expectNothingLeft("period_rollup", JSON.stringify(rollup));
  });
});

describe("webhooks", () => {
  it("every report.published body", async () => {
    // Only the import writes events: the reports stored directly are announced by nothing.
    for (let pass = 0; pass < 50 && receiver.received.length < imported.length; pass++) await deliverDue();
    expect(receiver.received).toHaveLength(imported.length);
    for (const request of receiver.received) expectNothingLeft("a webhook body", request.body, ["Maya Chen"]);
  });
});
