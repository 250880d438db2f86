import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as getTeam } from "@/app/api/v1/team/route";
import { createApiKey } from "@/lib/data/api-keys";
import { EMAIL_MASK, HANDLE_MASK, PHONE_MASK } from "@/lib/data/contact-masks";
import { importReports } from "@/lib/data/import-reports";
import { addMember, deactivateMember, updateMember } from "@/lib/data/members";
import { resetEnvCache } from "@/lib/env";
import type { MemberInput } from "@/lib/schemas/member-input";
import { webhookPayloadSchema } from "@/lib/schemas/webhooks";
import { deliverDue } from "@/lib/webhooks/deliver";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { bearer } from "../helpers/keys";
import { connectMcp } from "../helpers/mcp-client";
import { call } from "../helpers/request";
import { createTeamOrg, type TeamOrg } from "../helpers/team-org";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// The contact details Settings → Team and the roster import store (member_contacts, and the roster row's address
// and first handle): masked wherever report text names them, and never in anything served — REST, MCP, markdown or
// the member.updated webhook, whose person is exactly as GET /api/v1/team shows them.

const ANA: MemberInput = {
  name: "Ana Lima",
  email: "ana@team.example",
  role: "member",
  department: "Design",
  external: false,
  active: true,
  otherEmails: ["ana.lima@home-mail.example"],
  chats: ["@analima", "U0ANA42X"],
  phones: ["+44 20 7946 0958"],
};
const CONTACT_VALUES = ["ana@team.example", "home-mail", "analima", "U0ANA42X", "7946"];
const CLI = { label: "cli" } as const;

let org: TeamOrg;
let key: string;
let anaId: string;
let client: Client;
let receiver: WebhookReceiver;
const previousAllowHosts = process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;

beforeAll(async () => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
  resetEnvCache();
  receiver = await startWebhookReceiver();
  org = await createTeamOrg();
  await addWebhookEndpoint({ organizationId: org.id, url: receiver.url, events: ["member.updated"], actor: CLI });
  anaId = (await addMember(org.id, CLI, "operator", ANA)).id;
  key = (
    await createApiKey({ organizationId: org.id, name: "agent", scopes: ["reports:read", "team:read"], actor: CLI })
  ).key;
  client = await connectMcp(bearer(key) as Record<string, string>);
});

afterAll(async () => {
  await client?.close();
  await receiver.close();
  if (previousAllowHosts === undefined) delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  else process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = previousAllowHosts;
  resetEnvCache();
});

const expectNoContacts = (text: string) => {
  for (const value of CONTACT_VALUES) expect(text).not.toContain(value);
};

describe("the contact details of the roster", () => {
  it("are masked in report text, every kind of them", async () => {
    const id = crypto.randomUUID();
    await importReports(
      org,
      [
        {
          id,
          scope: "member",
          scope_target_id: anaId,
          generated_at: "2026-11-21T17:30:00.000Z",
          report: {
            headline: "Ana Lima shipped the palette",
            kpi_status: [],
            shipped: [{ title: "Palette", notes: "ask @analima or U0ANA42X; mail ana.lima@home-mail.example" }],
            silent: [],
            slipping: [],
            blockers: [{ title: "call +44 20 7946 0958 or write ana@team.example" }],
          },
        },
      ],
      { actor: { label: "test" } },
    );
    const res = await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(key) }, { id });
    expect(res.status).toBe(200);
    expect(res.body.report.shipped[0].notes).toBe(`ask ${HANDLE_MASK} or ${HANDLE_MASK}; mail ${EMAIL_MASK}`);
    expect(res.body.report.blockers[0].title).toBe(`call ${PHONE_MASK} or write ${EMAIL_MASK}`);
    const markdown = await call(
      getReport,
      `/api/v1/reports/${id}`,
      {
        headers: { ...bearer(key), Accept: "text/markdown" } as HeadersInit,
      },
      { id },
    );
    expect(markdown.status).toBe(200);
    expectNoContacts(markdown.text);
  });

  it("are masked once added later, by the next read", async () => {
    const id = crypto.randomUUID();
    await importReports(
      org,
      [
        {
          id,
          scope: "org",
          scope_target_id: null,
          generated_at: "2026-11-22T17:30:00.000Z",
          report: {
            headline: "ping zed.k9 please",
            kpi_status: [],
            shipped: [],
            silent: [],
            slipping: [],
            blockers: [],
          },
        },
      ],
      { actor: { label: "test" } },
    );
    const headline = async () =>
      (await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(key) }, { id })).body.report.headline;
    expect(await headline()).toBe("ping zed.k9 please");
    await updateMember(org.id, CLI, "operator", anaId, { ...ANA, chats: [...ANA.chats, "zed.k9"] });
    expect(await headline()).toBe(`ping ${HANDLE_MASK} please`);
    await updateMember(org.id, CLI, "operator", anaId, ANA);
  });

  it("are in no answer of GET /api/v1/team or MCP list_team", async () => {
    const res = await call(getTeam, "/api/v1/team", { headers: bearer(key) });
    expect(res.status).toBe(200);
    const ana = res.body.members.find((m: { id: string }) => m.id === anaId);
    expect(ana).toEqual({
      id: anaId,
      name: "Ana Lima",
      role: "member",
      department: "Design",
      is_external: false,
      active: true,
    });
    expectNoContacts(JSON.stringify(res.body));
    const result = await client.callTool({ name: "list_team", arguments: {} });
    expectNoContacts(JSON.stringify(result));
  });
});

describe("member.updated", () => {
  it("sends each changed person as GET /api/v1/team shows them, a deactivation with active false", async () => {
    // What earlier changes queued (the person's addition, the test above) is delivered first.
    for (let pass = 0; pass < 5; pass++) await deliverDue();
    receiver.received.length = 0;
    await updateMember(org.id, CLI, "operator", anaId, { ...ANA, department: "Brand" });
    await deactivateMember(org.id, CLI, "operator", anaId);
    // An unchanged save announces nothing.
    await updateMember(org.id, CLI, "operator", anaId, { ...ANA, department: "Brand", active: false });
    for (let pass = 0; receiver.received.length < 2 && pass < 20; pass++) await deliverDue();
    await deliverDue();
    const events = receiver.received.map((r) => webhookPayloadSchema.parse(JSON.parse(r.body)));
    expect(events.map((e) => e.type)).toEqual(["member.updated", "member.updated"]);
    const team = await call(getTeam, "/api/v1/team?active=false", { headers: bearer(key) });
    const served = team.body.members.find((m: { id: string }) => m.id === anaId);
    // One event per change, each with the state that change left; a pass delivers concurrently, so in any order.
    const members = events.map((e) => (e.data as { member: unknown }).member);
    expect(members).toHaveLength(2);
    expect(members).toEqual(expect.arrayContaining([{ ...served, active: true }, served]));
    expect(served).toMatchObject({ department: "Brand", active: false });
    for (const r of receiver.received) expectNoContacts(r.body);
  });
});
