import { createHash } from "node:crypto";

/**
 * A person's e-mail address as a limiter counts it: by a hash, so the shared store (Redis, Upstash) holds no
 * address. Sign-in failures and password-reset messages are both counted per account this way.
 */
export function accountIdentifier(email: string): string {
  return createHash("sha256").update(email).digest("base64url");
}
