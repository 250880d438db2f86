import { keyStatus } from "@/lib/data/api-keys";
import { findApiKeyByHash, touchApiKey, type KeyedRead } from "@/lib/data/key-lookup";
import { ApiError } from "@/lib/http/errors";
import { hashApiKey, isWellFormedApiKey } from "./api-key";
import { isScope, type Scope } from "./scopes";

export interface VerifiedKey {
  id: string;
  organization: { id: string; name: string };
  scopes: Scope[];
  /** True when last_used_at is older than a minute and should be refreshed (off the critical path). */
  needsTouch: boolean;
}

export type Verification =
  | { ok: true; key: VerifiedKey; /** The raw result of the read asked for, null if none. */ data: unknown }
  | { ok: false; reason: "malformed" | "unknown" | "revoked" | "expired" };

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Checks a presented key: shape and checksum first (no I/O), then one lookup by its hash, which can
 * carry a read of the key's organization (`keyed`) so that a request costs one round trip.
 */
export async function verifyApiKey(secret: string, { keyed, now = new Date() }: { keyed?: KeyedRead; now?: Date } = {}): Promise<Verification> {
  if (!isWellFormedApiKey(secret)) return { ok: false, reason: "malformed" };
  const found = await findApiKeyByHash(hashApiKey(secret), keyed);
  if (!found) return { ok: false, reason: "unknown" };
  const { key: row, data } = found;
  const status = keyStatus(row, now);
  if (status !== "active") return { ok: false, reason: status };
  return {
    ok: true,
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

const REASON_MESSAGES: Record<Exclude<Verification, { ok: true }>["reason"], string> = {
  malformed: "The API key is not valid.",
  unknown: "The API key is not valid.",
  revoked: "The API key has been revoked.",
  expired: "The API key has expired.",
};

export function unauthorized(reason: keyof typeof REASON_MESSAGES): ApiError {
  return new ApiError("unauthorized", REASON_MESSAGES[reason]);
}

export function requireScope(key: VerifiedKey, scope: Scope | undefined): void {
  if (scope && !key.scopes.includes(scope)) {
    throw new ApiError("insufficient_scope", `This API key lacks the ${scope} scope.`, { requiredScope: scope });
  }
}
