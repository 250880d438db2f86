import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { resolveAuthSecret } from "./server-secret";

// Webhook endpoints' signing secrets, in the Standard Webhooks form: `whsec_` and the base64 of the key's bytes, which
// receivers pass as-is to the `standardwebhooks` library (or any of its ports). 32 bytes, as HMAC-SHA256 wants at least.
//
// Signing secrets are needed in clear to sign, so they cannot be hashed like API keys; they are sealed instead
// (AES-256-GCM under a key derived from the server secret), so that a copy of the database alone signs nothing.
// Format: `v1.<iv>.<tag>.<ciphertext>`, each base64url.

const VERSION = "v1";
const SECRET_BYTES = 32;

function sealingKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", resolveAuthSecret(), "", "sundown webhook signing secrets", 32));
}

export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export class UnsealError extends Error {
  constructor() {
    super(
      "The endpoint's signing secret cannot be opened: the server secret (NEXTAUTH_SECRET) changed since it was " +
        "sealed. Roll the endpoint's secret to sign again.",
    );
    this.name = "UnsealError";
  }
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new UnsealError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new UnsealError();
  }
}

/** The secret, or undefined when it was sealed under another server secret (UnsealError). */
export function openSecretIfAble(sealed: string): string | undefined {
  try {
    return openSecret(sealed);
  } catch (error) {
    if (error instanceof UnsealError) return undefined;
    throw error;
  }
}

/** A new secret, to show once, and its sealed form, to store. */
export function generateWebhookSecretPair(): { secret: string; sealed: string } {
  const secret = `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;
  return { secret, sealed: sealSecret(secret) };
}
