import { randomBytes } from "node:crypto";
import { sealSecret } from "./secret-box";

// Signing secrets in the Standard Webhooks form: `whsec_` and the base64 of the key's bytes, which receivers pass
// as-is to the `standardwebhooks` library (or any of its ports). 32 bytes, as HMAC-SHA256 wants at least.

const SECRET_BYTES = 32;

/** A new secret, to show once, and its sealed form, to store. */
export function generateWebhookSecretPair(): { secret: string; sealed: string } {
  const secret = `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;
  return { secret, sealed: sealSecret(secret) };
}
