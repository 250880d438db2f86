import { listActivity } from "@/lib/data/activity";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  listWebhookEndpoints,
  WEBHOOK_ENDPOINT_SUBJECT,
  MAX_ENDPOINTS_PER_ORGANIZATION,
  TOO_MANY_ENDPOINTS,
} from "@/lib/data/webhook-endpoints";
import { getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import {
  createEndpoint,
  deleteEndpoint,
  pingEndpoint,
  redeliver,
  rollSecret,
  setEndpointEnabled,
} from "@/lib/settings/webhook-actions";
import { deliverDue } from "@/lib/webhooks/deliver";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import type { SessionUser } from "@/lib/data/users";
import { form, user } from "../helpers/settings-forms";

// The logic behind the webhooks settings page's server actions, called as the actions call it: with the signed-in
// user as the database knows them (or null) and the raw form data. The receiver is a real HTTP server on loopback,
// which SUNDOWN_WEBHOOK_ALLOW_HOSTS admits; everything else goes through the URL rules as on a real deployment.

// The URL rules' own sentences (lib/webhooks/endpoint-url.ts, lib/webhooks/address-rules.ts), shown as they are.
const HTTPS_RULE =
  "Use an https:// URL: plain http is only allowed for hosts the operator lists in SUNDOWN_WEBHOOK_ALLOW_HOSTS.";
const PRIVATE_ADDRESS_RULE =
  "10.0.0.1 is a private address: Sundown only delivers to public addresses (an operator can allow a host with SUNDOWN_WEBHOOK_ALLOW_HOSTS).";
const ENDPOINT_NOT_FOUND = "This webhook endpoint does not exist in your organization.";
const MEMBERS_REFUSED = "Only founders and leads can manage webhooks.";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let receiver: WebhookReceiver;
const previousAllowHosts = process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;

/** Adds an endpoint through the action and returns it with its one-time secret. */
async function addEndpoint(who: SessionUser, path = "/hook") {
  const state = await createEndpoint.forUser(
    who,
    form({ url: receiver.url.replace("/hook", path), events: "report.published" }),
  );
  if (state.status !== "created") throw new Error(`expected an endpoint, got ${JSON.stringify(state)}`);
  return state.endpoint;
}

/**
 * The page's ping action also calls deliverSoon(), which needs a request; here the delivery pass runs directly,
 * until the receiver has `count` requests.
 */
async function deliveredRequests(count: number) {
  for (let pass = 0; receiver.received.length < count && pass < 20; pass++) await deliverDue();
  expect(receiver.received).toHaveLength(count);
  return receiver.received;
}

/** What a refusal must leave as it was: the organization's endpoints and its activity trail. */
async function snapshot(organizationId: string) {
  return {
    endpoints: await listWebhookEndpoints(organizationId),
    trail: await listActivity(organizationId, [WEBHOOK_ENDPOINT_SUBJECT]),
  };
}

beforeAll(async () => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*,localhost";
  resetEnvCache();
  receiver = await startWebhookReceiver();
  // Opening (and on first use seeding) the database can take a while on a busy machine: not part of any test.
  await getDb();
});

afterEach(async () => {
  // The demo organizations are shared with other test files: an endpoint left behind would receive their reports'
  // events, and the deliveries would show up in their delivery passes.
  const db = await getDb();
  await db.webhookEndpoint.deleteMany({ where: { url: { startsWith: receiver.url.replace("/hook", "") } } });
  receiver.received.length = 0;
});

afterAll(async () => {
  await receiver.close();
  if (previousAllowHosts === undefined) delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  else process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = previousAllowHosts;
  resetEnvCache();
});

describe("adding an endpoint", () => {
  it("a lead adds one and sees its secret once: the list never holds it, and it signs the ping", async () => {
    const lead = await user("lead@acme.example");
    const endpoint = await addEndpoint(lead);
    expect(endpoint).toMatchObject({ url: receiver.url, events: ["report.published"] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const listed = (await listWebhookEndpoints(lead.organization.id)).find((e) => e.id === endpoint.id);
    expect(listed).toMatchObject({ url: receiver.url, enabled: true, createdBy: "Dev Patel", failingSince: null });
    expect(JSON.stringify(await listWebhookEndpoints(lead.organization.id))).not.toContain(endpoint.secret);
    expect((await listActivity(lead.organization.id, [WEBHOOK_ENDPOINT_SUBJECT]))[0]).toMatchObject({
      action: "created",
      actor: "Dev Patel",
      subject: { id: endpoint.id, label: receiver.url },
    });

    const ping = await pingEndpoint.forUser(lead, form({ endpointId: endpoint.id }));
    expect(ping).toMatchObject({ status: "queued", endpointId: endpoint.id });
    const [request] = await deliveredRequests(1);
    expect(receiver.verify(request!, endpoint.secret)).toMatchObject({
      type: "ping",
      data: { endpoint_id: endpoint.id },
    });
  });

  it(`refuses an endpoint beyond the ${MAX_ENDPOINTS_PER_ORGANIZATION} an organization may have, saying why, and writes nothing`, async () => {
    const lead = await user("lead@acme.example");
    const have = (await listWebhookEndpoints(lead.organization.id)).length;
    for (let i = have; i < MAX_ENDPOINTS_PER_ORGANIZATION; i++) await addEndpoint(lead, `/hook-${i}`);
    const before = await snapshot(lead.organization.id);
    const url = receiver.url.replace("/hook", "/one-too-many");
    const state = await createEndpoint.forUser(lead, form({ url, events: "report.published" }));
    expect(state).toMatchObject({ status: "error", message: TOO_MANY_ENDPOINTS });
    expect(await snapshot(lead.organization.id)).toEqual(before);
  });

  it("a member is refused and nothing is written", async () => {
    const member = await user("member@acme.example");
    const before = await snapshot(member.organization.id);
    const state = await createEndpoint.forUser(member, form({ url: receiver.url, events: "report.published" }));
    expect(state).toEqual({
      status: "error",
      message: MEMBERS_REFUSED,
      fieldErrors: {},
      values: { url: receiver.url, events: ["report.published"] },
    });
    expect(await createEndpoint.forUser(null, form({ url: receiver.url, events: "report.published" }))).toMatchObject({
      status: "error",
      message: "Your session has ended. Sign in again to manage webhooks.",
    });
    expect(await snapshot(member.organization.id)).toEqual(before);
  });

  it.each([
    ["plain http to a public address", "http://203.0.113.10/hook", HTTPS_RULE],
    ["a private address over https", "https://10.0.0.1/hook", PRIVATE_ADDRESS_RULE],
    // Whichever rule it meets first (the scheme, today), a private address is never saved.
    [
      "a private address over http",
      "http://10.0.0.1/hook",
      new RegExp(`^(${escape(HTTPS_RULE)}|${escape(PRIVATE_ADDRESS_RULE)})$`),
    ],
    ["text that is no URL", "hooks.example.com", "Enter a full URL, such as https://example.com/webhooks."],
  ])("refuses %s next to the URL field, keeps what was typed, and writes nothing", async (_case, url, rule) => {
    const lead = await user("lead@acme.example");
    const before = await snapshot(lead.organization.id);
    const state = await createEndpoint.forUser(lead, form({ url, events: "report.published" }));
    expect(state).toMatchObject({
      status: "error",
      message: "The endpoint was not added. Fix the fields marked below.",
      fieldErrors: { url: typeof rule === "string" ? rule : expect.stringMatching(rule) },
      values: { url, events: ["report.published"] },
    });
    if (state.status === "error") expect(Object.keys(state.fieldErrors)).toEqual(["url"]);
    expect(await snapshot(lead.organization.id)).toEqual(before);
  });

  it("asks for a URL and at least one known event, field by field", async () => {
    const lead = await user("lead@acme.example");
    const before = await snapshot(lead.organization.id);
    expect(await createEndpoint.forUser(lead, form({ url: "  " }))).toMatchObject({
      status: "error",
      fieldErrors: { url: "Enter the URL that will receive the webhooks.", events: "Choose at least one event." },
    });
    expect(await createEndpoint.forUser(lead, form({ url: receiver.url, events: "roster.changed" }))).toMatchObject({
      status: "error",
      fieldErrors: { events: "Events are report.published, report.updated, report.deleted, member.updated." },
    });
    expect(await snapshot(lead.organization.id)).toEqual(before);
  });
});

describe("changing an endpoint", () => {
  it("disable, enable, roll and delete each take effect and write the trail, newest first", async () => {
    const lead = await user("lead@acme.example");
    const org = lead.organization.id;
    const endpoint = await addEndpoint(lead);
    const listed = async () => (await listWebhookEndpoints(org)).find((e) => e.id === endpoint.id);

    expect(await setEndpointEnabled.forUser(lead, form({ endpointId: endpoint.id, enabled: "false" }))).toEqual({
      status: "changed",
      endpointId: endpoint.id,
      enabled: false,
    });
    expect(await listed()).toMatchObject({ enabled: false, disabledReason: "manual", disabledAt: expect.any(Date) });
    await setEndpointEnabled.forUser(lead, form({ endpointId: endpoint.id, enabled: "true" }));
    expect(await listed()).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });

    const now = new Date();
    const rolled = await rollSecret.forUser(lead, form({ endpointId: endpoint.id, overlap: "1h" }), now);
    if (rolled.status !== "rolled") throw new Error(`expected a roll, got ${JSON.stringify(rolled)}`);
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(endpoint.secret);
    expect(rolled.previousSecretExpiresAt).toBe(new Date(now.getTime() + 3_600_000).toISOString());
    expect(await listed()).toMatchObject({ previousSecretExpiresAt: new Date(rolled.previousSecretExpiresAt!) });
    // Through the overlap, a receiver holding either secret accepts the delivery.
    await pingEndpoint.forUser(lead, form({ endpointId: endpoint.id }));
    const [request] = await deliveredRequests(1);
    expect(receiver.verify(request!, rolled.secret)).toMatchObject({ type: "ping" });
    expect(receiver.verify(request!, endpoint.secret)).toMatchObject({ type: "ping" });

    expect(await deleteEndpoint.forUser(lead, form({ endpointId: endpoint.id }))).toEqual({
      status: "deleted",
      endpointId: endpoint.id,
    });
    expect(await listed()).toBeUndefined();

    const trail = (await listActivity(org, [WEBHOOK_ENDPOINT_SUBJECT]))
      .filter((line) => line.subject.label === receiver.url)
      .slice(0, 5);
    expect(trail.map((line) => [line.action, line.actor])).toEqual([
      ["deleted", "Dev Patel"],
      ["secret_rolled", "Dev Patel"],
      ["enabled", "Dev Patel"],
      ["disabled", "Dev Patel"],
      ["created", "Dev Patel"],
    ]);
  });

  it("a roll without overlap stops the old secret at once", async () => {
    const lead = await user("lead@acme.example");
    const endpoint = await addEndpoint(lead);
    const rolled = await rollSecret.forUser(lead, form({ endpointId: endpoint.id, overlap: "0" }));
    if (rolled.status !== "rolled") throw new Error(`expected a roll, got ${JSON.stringify(rolled)}`);
    expect(rolled.previousSecretExpiresAt).toBeNull();
    await pingEndpoint.forUser(lead, form({ endpointId: endpoint.id }));
    const [request] = await deliveredRequests(1);
    expect(receiver.verify(request!, rolled.secret)).toMatchObject({ type: "ping" });
    expect(() => receiver.verify(request!, endpoint.secret)).toThrow();
  });

  it("another organization's endpoint is not found, whatever the action, and stays as it was", async () => {
    const acmeLead = await user("lead@acme.example");
    const globexLead = await user("lead@globex.example");
    const endpoint = await addEndpoint(acmeLead);
    const before = await snapshot(acmeLead.organization.id);
    const globexBefore = await snapshot(globexLead.organization.id);
    const endpointId = endpoint.id;
    for (const state of [
      await setEndpointEnabled.forUser(globexLead, form({ endpointId, enabled: "false" })),
      await pingEndpoint.forUser(globexLead, form({ endpointId })),
      await rollSecret.forUser(globexLead, form({ endpointId, overlap: "0" })),
      await deleteEndpoint.forUser(globexLead, form({ endpointId })),
    ]) {
      expect(state).toEqual({ status: "error", message: ENDPOINT_NOT_FOUND });
    }
    expect(await snapshot(acmeLead.organization.id)).toEqual(before);
    expect(await snapshot(globexLead.organization.id)).toEqual(globexBefore);
    // The ping was not queued either: the next delivery pass sends nothing there.
    await deliverDue();
    expect(receiver.received).toHaveLength(0);
  });

  it.each(["", "not-a-uuid", "00000000-0000-4000-8000-000000000000"])(
    "refuses the endpoint id %j as not found",
    async (endpointId) => {
      const lead = await user("lead@acme.example");
      expect(await deleteEndpoint.forUser(lead, form({ endpointId }))).toEqual({
        status: "error",
        message: ENDPOINT_NOT_FOUND,
      });
      expect(await pingEndpoint.forUser(lead, form({ endpointId }))).toEqual({
        status: "error",
        message: ENDPOINT_NOT_FOUND,
      });
    },
  );

  it("a member can neither disable, ping, roll nor delete an endpoint of their own organization", async () => {
    const lead = await user("lead@acme.example");
    const member = await user("member@acme.example");
    const endpoint = await addEndpoint(lead);
    const before = await snapshot(lead.organization.id);
    const endpointId = endpoint.id;
    for (const state of [
      await setEndpointEnabled.forUser(member, form({ endpointId, enabled: "false" })),
      await pingEndpoint.forUser(member, form({ endpointId })),
      await rollSecret.forUser(member, form({ endpointId, overlap: "0" })),
      await deleteEndpoint.forUser(member, form({ endpointId })),
    ]) {
      expect(state).toEqual({ status: "error", message: MEMBERS_REFUSED });
    }
    expect(await snapshot(lead.organization.id)).toEqual(before);
  });

  it("refuses an overlap the page does not offer, writing nothing", async () => {
    const lead = await user("lead@acme.example");
    const endpoint = await addEndpoint(lead);
    const before = await snapshot(lead.organization.id);
    expect(await rollSecret.forUser(lead, form({ endpointId: endpoint.id, overlap: "2h" }))).toEqual({
      status: "error",
      message: "Choose an overlap: 0, 1h, 24h, 7d.",
    });
    expect(await snapshot(lead.organization.id)).toEqual(before);
  });
});

describe("redelivering", () => {
  it("sends the same event again, and is refused while the endpoint is disabled", async () => {
    const lead = await user("lead@acme.example");
    const endpoint = await addEndpoint(lead);
    const ping = await pingEndpoint.forUser(lead, form({ endpointId: endpoint.id }));
    if (ping.status !== "queued") throw new Error(`expected a ping, got ${JSON.stringify(ping)}`);
    await deliveredRequests(1);

    expect(await redeliver.forUser(lead, form({ deliveryId: ping.deliveryId }))).toEqual({
      status: "queued",
      deliveryId: ping.deliveryId,
    });
    const [first, again] = await deliveredRequests(2);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);

    // Another organization's delivery id is not found, like an unknown one.
    const globexLead = await user("lead@globex.example");
    for (const deliveryId of [ping.deliveryId, "not-a-uuid"]) {
      expect(await redeliver.forUser(globexLead, form({ deliveryId }))).toEqual({
        status: "error",
        message: "This delivery does not exist in your organization.",
      });
    }

    await setEndpointEnabled.forUser(lead, form({ endpointId: endpoint.id, enabled: "false" }));
    expect(await redeliver.forUser(lead, form({ deliveryId: ping.deliveryId }))).toEqual({
      status: "error",
      message: "This endpoint is disabled; enable it before redelivering to it.",
    });
    await deliverDue();
    expect(receiver.received).toHaveLength(2);
  });
});
