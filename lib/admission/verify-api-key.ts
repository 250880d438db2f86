import { hashApiKey, isWellFormedApiKey } from "@/lib/auth/api-key";
import { hasScope, isScope, type Scope } from "@/lib/auth/scopes";
import { findApiKeyByHash, touchApiKey } from "@/lib/data/key-lookup";
import { acceptsRequests, keyStatus } from "@/lib/data/key-status";
import type { ReadRequest } from "@/lib/data/organization-read";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";

export interface VerifiedKey {
  id: string;
  organization: { id: string; name: string };
  /** The organization's IANA time zone: its days (since/until dates, the day resource) are counted there. */
  timeZone: string;
  scopes: Scope[];
  /** True when last_used_at is older than a minute and should be refreshed (off the critical path). */
  needsTouch: boolean;
}

const TOUCH_INTERVAL_MS = 60_000;

type Refusal = "malformed" | "unknown" | "revoked" | "expired";

const REFUSAL_MESSAGES: Record<Refusal, string> = {
  malformed: "The API key is not valid.",
  unknown: "The API key is not valid.",
  revoked: "The API key has been revoked.",
  expired: "The API key has expired.",
};

function unauthorized(refusal: Refusal): ApiError {
  return new ApiError("unauthorized", REFUSAL_MESSAGES[refusal]);
}

/** The presented key's hash; a key of the wrong shape or checksum is refused here, without I/O. */
export function hashPresentedKey(secret: string): string {
  if (!isWellFormedApiKey(secret)) throw unauthorized("malformed");
  return hashApiKey(secret);
}

// Keys this process has found in the database, by key hash: their ids and scopes, neither of which ever
// changes for a key. A request can then be counted against its key's budget, and its scope known, before the
// lookup; whether the key is still valid (revoked, expired) is decided by the database on every request. Only
// found keys enter, so unknown keys cannot churn it.
export interface KnownKey {
  id: string;
  scopes: Scope[];
}

const knownKeys = new Map<string, KnownKey>();
const KNOWN_KEYS_MAX = 10_000;

/** The key with this hash, if this process has looked it up before. */
export function knownKey(hashedKey: string): KnownKey | undefined {
  return knownKeys.get(hashedKey);
}

function rememberKey(hashedKey: string, key: KnownKey): void {
  if (knownKeys.has(hashedKey)) return;
  if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.delete(knownKeys.keys().next().value!);
  knownKeys.set(hashedKey, key);
}

/**
 * The active key with this hash, in one lookup, which can carry a read of the key's organization (run only
 * if the key works; attach it only for a key that has the read's scope). Unknown, revoked or expired: 401.
 */
export function verifyKeyHash(
  hashedKey: string,
  { read, now = new Date() }: { read?: ReadRequest<unknown>; now?: Date } = {},
): Promise<{ key: VerifiedKey; data: unknown }> {
  // A continuation rather than an async function: this is every keyed request's path, and each layer of
  // async/await is a promise more per request (tests/integration/admission-allocations.test.ts counts them).
  return findApiKeyByHash(hashedKey, { read, now }).then((found) => {
    if (!found) {
      knownKeys.delete(hashedKey);
      throw unauthorized("unknown");
    }
    const { key: row, data } = found;
    const scopes = row.scopes.filter(isScope);
    rememberKey(hashedKey, { id: row.id, scopes });
    const status = keyStatus(row, now);
    // A rolled key works until its overlap ends, exactly like an active one; then it is refused as revoked.
    if (!acceptsRequests(status)) throw unauthorized(status);
    return {
      key: {
        id: row.id,
        organization: row.organization,
        timeZone: row.timeZone,
        scopes,
        needsTouch: !row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS,
      },
      data,
    };
  });
}

// Recently touched keys, so a burst of requests from one key writes last_used_at once per instance.
const recentlyTouched = new Map<string, number>();

export async function recordKeyUse(key: VerifiedKey, now = Date.now()): Promise<void> {
  if (!key.needsTouch) return;
  const last = recentlyTouched.get(key.id);
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
  recentlyTouched.set(key.id, now);
  if (recentlyTouched.size > 10_000) {
    for (const [id, at] of recentlyTouched) if (now - at >= TOUCH_INTERVAL_MS) recentlyTouched.delete(id);
  }
  await touchApiKey(key.id, key.organization.id, new Date(now));
}

export function requireScope(key: Pick<VerifiedKey, "scopes">, scope: Scope | undefined): void {
  if (!hasScope(key.scopes, scope)) {
    throw new ApiError("insufficient_scope", ERROR_MESSAGES.insufficientScope(scope!), { requiredScope: scope });
  }
}
