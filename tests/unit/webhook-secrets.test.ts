import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { resetEnvCache } from "@/lib/env";
import { generateWebhookSecretPair, openSecret, sealSecret, UnsealError } from "@/lib/auth/webhook-secret";

const previous = process.env.NEXTAUTH_SECRET;

function withServerSecret(secret: string) {
  process.env.NEXTAUTH_SECRET = secret;
  resetEnvCache();
}

afterEach(() => {
  process.env.NEXTAUTH_SECRET = previous;
  resetEnvCache();
});

describe("webhook signing secrets", () => {
  it("are Standard Webhooks secrets the library signs and verifies with", () => {
    withServerSecret("server-secret-one-server-secret-one");
    const { secret } = generateWebhookSecretPair();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const webhook = new Webhook(secret);
    const signature = webhook.sign("msg_1", new Date(), "{}");
    expect(() =>
      webhook.verify("{}", {
        "webhook-id": "msg_1",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": signature,
      }),
    ).not.toThrow();
  });

  it("are stored sealed: the stored form does not contain the secret, and opens to it under the same server secret", () => {
    withServerSecret("server-secret-one-server-secret-one");
    const { secret, sealed } = generateWebhookSecretPair();
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(openSecret(sealed)).toBe(secret);
    expect(sealSecret(secret)).not.toBe(sealed);
  });

  it("do not open under another server secret, and say what to do", () => {
    withServerSecret("server-secret-one-server-secret-one");
    const { sealed } = generateWebhookSecretPair();
    withServerSecret("server-secret-two-server-secret-two");
    expect(() => openSecret(sealed)).toThrow(UnsealError);
    expect(() => openSecret(sealed)).toThrow(/NEXTAUTH_SECRET\) changed.*Roll the endpoint's secret/);
    expect(() => openSecret("not sealed")).toThrow(UnsealError);
  });
});
