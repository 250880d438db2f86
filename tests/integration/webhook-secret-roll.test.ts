import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { deliverDue } from "@/lib/webhooks/deliver";
import { rollWebhookSecret, UNOPENABLE_OLD_SECRET } from "@/lib/data/webhook-endpoints";
import { listWebhookAttempts } from "@/lib/data/webhook-deliveries";
import { sendWebhookPing } from "@/lib/webhooks/pushes";
import { addWebhookEndpoint } from "../helpers/webhook-endpoints";
import { sealSecret } from "@/lib/auth/webhook-secret";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

// Rolling a webhook secret after the server secret changed (NEXTAUTH_SECRET replaced, or auth-secret deleted to
// sign everyone out, as docs/settings-and-sign-in.md advises): issue 34 found the preselected 24 h overlap keeping the old
// secret, which can no longer be opened, and so every delivery failing for 24 h.

const ACTOR = { label: "test" } as const;
const DAY_MS = 24 * 3600_000;
const previousServerSecret = process.env.NEXTAUTH_SECRET;
let org: HistoryOrg;
let receiver: WebhookReceiver;

function serverSecret(value: string) {
  process.env.NEXTAUTH_SECRET = value;
  resetEnvCache();
}

async function deliverAll() {
  while ((await deliverDue()).attempted > 0);
}

beforeAll(async () => {
  process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS = "127.0.0.1:*";
  serverSecret("the-first-server-secret-0123456789");
  org = await createHistoryOrg();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
  await org.remove();
  delete process.env.SUNDOWN_WEBHOOK_ALLOW_HOSTS;
  if (previousServerSecret === undefined) delete process.env.NEXTAUTH_SECRET;
  else process.env.NEXTAUTH_SECRET = previousServerSecret;
  resetEnvCache();
});

describe("rolling a webhook secret after the server secret changed", () => {
  it("refuses an overlap, saying why; without one, the new secret signs every delivery", async () => {
    serverSecret("the-first-server-secret-0123456789");
    const endpoint = await addWebhookEndpoint({
      organizationId: org.organization.id,
      url: receiver.url,
      events: ["report.published"],
      actor: ACTOR,
    });
    serverSecret("the-second-server-secret-9876543210");

    await expect(
      rollWebhookSecret(org.organization.id, endpoint.id, { overlapMs: DAY_MS, actor: ACTOR }),
    ).rejects.toMatchObject({ code: "conflict", message: UNOPENABLE_OLD_SECRET });
    const rolled = await rollWebhookSecret(org.organization.id, endpoint.id, { overlapMs: 0, actor: ACTOR });

    receiver.received.length = 0;
    await sendWebhookPing(org.organization.id, endpoint.id);
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    expect(() => receiver.verify(receiver.received[0]!, rolled.secret)).not.toThrow();
    expect((await listWebhookAttempts(org.organization.id, endpoint.id))[0]).toMatchObject({ state: "delivered" });
  });

  it("an overlap already holding an old secret that cannot be opened signs with the new one alone", async () => {
    serverSecret("the-second-server-secret-9876543210");
    const endpoint = await addWebhookEndpoint({
      organizationId: org.organization.id,
      url: receiver.url,
      events: ["report.published"],
      actor: ACTOR,
    });
    // What a roll with an overlap left before this fix: the old secret sealed under the earlier server secret.
    serverSecret("the-first-server-secret-0123456789");
    const unopenable = sealSecret("whsec_c2VhbGVkIHVuZGVyIHRoZSBmaXJzdCBzZXJ2ZXIgc2VjcmV0");
    serverSecret("the-second-server-secret-9876543210");
    const db = await getDb();
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { previousSecretSealed: unopenable, previousSecretExpiresAt: new Date(Date.now() + DAY_MS) },
    });

    receiver.received.length = 0;
    await sendWebhookPing(org.organization.id, endpoint.id);
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => receiver.verify(receiver.received[0]!, endpoint.secret)).not.toThrow();
  });
});
