import { writeReportItems } from "@/lib/data/report-items";
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { createApiKey } from "@/lib/data/api-keys";
import { NESTED_TOO_DEEP } from "@/lib/data/scrub";
import { getDb } from "@/lib/db";
import { bearer } from "../helpers/keys";
import { connectMcp, textOf } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// Reports stored with contact details in the spellings real tools write, and one nested thousands of levels
// deep, read back through every surface that carries report content: none may leak, all must answer.

// Each value is unique, so finding it anywhere in a response means it leaked.
const CONTACT_VALUES = {
  mobile_phone: "+1 555 0100",
  work_phone: "+1 555 0101",
  cell: "+1 555 0102",
  whatsapp_number: "+49 151 0103",
  skype: "live:maya.skype",
  slackMemberId: "U0MAYAID1",
  contact: "maya@acme",
  "Reach-Me": "dm maya on the side",
};
const LEAKS = [
  ...Object.values(CONTACT_VALUES),
  "mayá@acme.example",
  "maya＠acme.example",
  "maya.key@acme.example",
  "U0MAYA03",
  "W123",
  "S0EARLY",
  ...Object.keys(CONTACT_VALUES),
];
const NAMES = ["Maya Chen", "Dev Patel"];

const leakyContent = {
  headline: "Maya Chen is quiet; write mayá@acme.example",
  kpi_status: [],
  shipped: [{ title: "Billing export", owner: "Dev Patel", notes: "thanks <@U0MAYA03> and <@W123|maya>" }],
  silent: [{ member: "Maya Chen", days: 2, ...CONTACT_VALUES }],
  slipping: [{ item: "Search", "maya.key@acme.example": { note: "ask maya＠acme.example" } }],
  blockers: [{ title: "Waiting on <!subteam^S0EARLY>", owner: "Maya Chen" }],
};

const DEEP_LEVELS = 3_000;
// Built as text: the database keeps it as it is, with no JavaScript recursion on the way in.
const deepContentJson =
  '{"headline":"deep","kpi_status":[],"shipped":[],"silent":[],"slipping":[],"blockers":[' +
  '{"nested":'.repeat(DEEP_LEVELS) +
  '"bottom, maya.deep@acme.example"' +
  "}".repeat(DEEP_LEVELS) +
  "]}";

let key: string;
let client: Client;
const ids = { leaky: randomUUID(), deep: randomUUID() };

beforeAll(async () => {
  const db = await getDb();
  const org = await db.organization.create({
    data: { slug: `contacts-${ids.leaky.slice(0, 8)}`, name: "Contacts" },
    select: { id: true },
  });
  key = (
    await createApiKey({ organizationId: org.id, name: "contacts", scopes: ["reports:read"], actor: { label: "test" } })
  ).key;
  await db.$executeRaw`
    INSERT INTO reports (id, organization_id, scope, generated_at, headline, content) VALUES
      (${ids.leaky}::uuid, ${org.id}::uuid, 'org', '2026-03-02T18:00:00Z', ${leakyContent.headline}, ${JSON.stringify(leakyContent)}::jsonb),
      (${ids.deep}::uuid, ${org.id}::uuid, 'org', '2026-03-01T18:00:00Z', 'deep', ${deepContentJson}::jsonb)`;
  // Stored as the import stores reports: their items too, which the briefing and the prompts read.
  await writeReportItems((sql, ...values) => db.$executeRawUnsafe(sql, ...values), org.id);
  client = await connectMcp(bearer(key) as Record<string, string>);
});

afterAll(async () => {
  await client?.close();
});

function expectNoLeak(text: string) {
  for (const leak of LEAKS) expect(text).not.toContain(leak);
  expect(text).not.toMatch(/[@＠﹫][a-z]/);
}

const rest = async (handler: typeof listReports, path: string, params: Record<string, string> = {}) => {
  const res = await call(handler, path, { headers: bearer(key) }, params);
  expect(res.status).toBe(200);
  return res.text;
};

describe("stored contact details are never served", () => {
  it("REST list and item", async () => {
    expectNoLeak(await rest(listReports, "/api/v1/reports"));
    const item = await rest(getReport, `/api/v1/reports/${ids.leaky}`, { id: ids.leaky });
    expectNoLeak(item);
    for (const name of NAMES) expect(item).toContain(name);
  });

  it("MCP tools, structured and as text", async () => {
    const list = await client.callTool({ name: "list_reports", arguments: {} });
    expectNoLeak(JSON.stringify(list));
    const item = await client.callTool({ name: "get_report", arguments: { id: ids.leaky } });
    expect(item.isError).toBeFalsy();
    expectNoLeak(JSON.stringify(item.structuredContent));
    expectNoLeak(textOf(item));
    for (const name of NAMES) expect(textOf(item)).toContain(name);
  });

  it("MCP resources/read, latest and one report", async () => {
    expectNoLeak(JSON.stringify(await client.readResource({ uri: "sundown://reports/latest" })));
    const item = JSON.stringify(await client.readResource({ uri: `sundown://reports/${ids.leaky}` }));
    expectNoLeak(item);
    expect(item).toContain("Maya Chen");
  });

  it("the lead_brief prompt", async () => {
    const prompt = JSON.stringify(await client.getPrompt({ name: "lead_brief", arguments: { count: "2" } }));
    expectNoLeak(prompt);
    expect(prompt).toContain("Dev Patel");
  });
});

describe(`a report nested ${DEEP_LEVELS} levels deep`, () => {
  it("is served over REST, cut off with a marker", async () => {
    const item = await rest(getReport, `/api/v1/reports/${ids.deep}`, { id: ids.deep });
    expect(item).toContain(NESTED_TOO_DEEP);
    expect(item).not.toContain("bottom");
  });

  it("is served over MCP, as a tool result and a resource, and the prompt holds none of it", async () => {
    const tool = await client.callTool({ name: "get_report", arguments: { id: ids.deep } });
    expect(tool.isError).toBeFalsy();
    expect(textOf(tool)).toContain(NESTED_TOO_DEEP);
    const resource = JSON.stringify(await client.readResource({ uri: `sundown://reports/${ids.deep}` }));
    expect(resource).toContain(NESTED_TOO_DEEP);
    // The prompts attach the briefing, which reads the items' fields (none here), never whole reports.
    const prompt = JSON.stringify(await client.getPrompt({ name: "lead_brief", arguments: { count: "2" } }));
    expect(prompt).not.toContain("bottom");
  });
});
