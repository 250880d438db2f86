// A key's state at an instant, the one rule every surface judges a key by: the request path
// (lib/admission/verify-api-key.ts, after the lookup's SQL gate in lib/data/key-lookup.ts, which must agree),
// the settings page and the CLI.

export type ApiKeyStatus = "active" | "rolled" | "revoked" | "expired";

const DAY_MS = 86_400_000;

/** Keys expiring within this many days are flagged on the settings page and in `sundown keys list`. */
export const EXPIRY_WARNING_DAYS = 7;

interface KeyTimes {
  /** When the key stops working: the revocation, or the end of a roll's overlap (which may lie ahead). */
  revokedAt: Date | null;
  expiresAt: Date | null;
}

/**
 * A key works at `now` < its stop instant and is refused from that instant on, whether it was revoked
 * or rolled. Only a roll sets a stop instant in the future, so a future one means "rolled, in its overlap".
 */
export function keyStatus(key: KeyTimes, now = new Date()): ApiKeyStatus {
  if (key.revokedAt && key.revokedAt <= now) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  if (key.revokedAt) return "rolled";
  return "active";
}

/** Whether the API accepts a key in this state: an active key, or a rolled one until its overlap ends. */
export function acceptsRequests(status: ApiKeyStatus): status is "active" | "rolled" {
  return status === "active" || status === "rolled";
}

/**
 * Whole days (rounded up) until a working key expires, when that is within EXPIRY_WARNING_DAYS; null for
 * keys that do not expire soon, or no longer work anyway.
 */
export function expiresWithinDays(key: KeyTimes, now = new Date()): number | null {
  if (!key.expiresAt || !acceptsRequests(keyStatus(key, now))) return null;
  const days = Math.ceil((key.expiresAt.getTime() - now.getTime()) / DAY_MS);
  return days <= EXPIRY_WARNING_DAYS ? days : null;
}
