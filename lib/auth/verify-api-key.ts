import { keyStatus } from "@/lib/data/api-keys";
import { findApiKeyByHash, touchApiKey, type KeyedRead } from "@/lib/data/key-lookup";
import { ApiError } from "@/lib/errors";
import { hashApiKey, isWellFormedApiKey } from "./api-key";
import { isScope, type Scope } from "./scopes";

export interface VerifiedKey {
  id: string;
  organization: { id: string; name: string };
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

// Key ids by key hash, for keys this process has found in the database, so a request can be counted against
// its key's budget before the lookup. An id never changes for a hash; whether the key is valid is still
// decided by the database on every request. Only found keys enter, so unknown keys cannot churn it.
const knownKeyIds = new Map<string, string>();
const KNOWN_KEY_IDS_MAX = 10_000;

/** The id of the key with this hash, if this process has looked it up before. */
export function knownKeyId(hashedKey: string): string | undefined {
  return knownKeyIds.get(hashedKey);
}

function rememberKeyId(hashedKey: string, id: string): void {
  if (knownKeyIds.has(hashedKey)) return;
  if (knownKeyIds.size >= KNOWN_KEY_IDS_MAX) knownKeyIds.delete(knownKeyIds.keys().next().value!);
  knownKeyIds.set(hashedKey, id);
}

/**
 * The active key with this hash, in one lookup, which can carry a read of the key's organization
 * (`keyed`, run only if the key is active and has the read's scope). Unknown, revoked or expired: 401.
 */
export async function verifyKeyHash(
  hashedKey: string,
  { keyed, now = new Date() }: { keyed?: KeyedRead; now?: Date } = {},
): Promise<{ key: VerifiedKey; data: unknown }> {
  const found = await findApiKeyByHash(hashedKey, { keyed, now });
  if (!found) {
    knownKeyIds.delete(hashedKey);
    throw unauthorized("unknown");
  }
  const { key: row, data } = found;
  rememberKeyId(hashedKey, row.id);
  const status = keyStatus(row, now);
  if (status !== "active") throw unauthorized(status);
  return {
    key: {
      id: row.id,
      organization: row.organization,
      scopes: row.scopes.filter(isScope),
      needsTouch: !row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS,
    },
    data,
  };
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

export function requireScope(key: VerifiedKey, scope: Scope | undefined): void {
  if (scope && !key.scopes.includes(scope)) {
    throw new ApiError("insufficient_scope", `This API key lacks the ${scope} scope.`, { requiredScope: scope });
  }
}
