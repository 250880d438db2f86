import { after } from "next/server";
import {
  hashPresentedKey,
  knownKey,
  recordKeyUse,
  requireScope,
  verifyKeyHash,
  type VerifiedKey,
} from "@/lib/admission/verify-api-key";
import { isWellFormedApiKey } from "@/lib/auth/api-key";
import { hasScope, type Scope } from "@/lib/auth/scopes";
import type { ReadRequest } from "@/lib/data/organization-read";
import { API_KEY_HEADER, AUTHORIZATION_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import { log } from "@/lib/log";
import type { StoreResult } from "@/lib/ratelimit/limiter";
import { clientAddress } from "@/lib/ratelimit/client-address";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import { addressLimiter, keyLimiter } from "@/lib/ratelimit/policies";
import { rateLimitHeaders } from "./rate-limit";
import { readApiKey } from "./read-api-key";
import type { RequestContext } from "./with-request";

// Admission of a keyed request, REST and MCP alike, in the contract's order: key (401) → the key's rate
// limit (429) → scope (403). Every failure is a thrown ApiError.
//
// Round trips. A key this process has looked up before has a known id, so its budget is counted first:
// admitted, one statement (the key lookup carrying the read); refused, the key lookup alone, so a revoked
// or expired key still answers 401 before 429 and a 429 costs no read. A key this process has not seen
// (its first request on a fresh instance) gets its id from the lookup, so the read cannot travel with it:
// lookup, budget, then the read on its own — two round trips, once per key per instance.

/**
 * What the request needs beyond a valid key: a scope (refused with 403 without it), and maybe a read of the
 * organization's data. The read is attached only for a key that has `readScope` (by default the scope): MCP
 * names the scope a tool call will need without making it a 403, since the tool answers a missing scope itself.
 */
export interface KeyNeeds {
  scope?: Scope;
  read?: ReadRequest<unknown>;
  readScope?: Scope;
}

export interface Admitted {
  key: VerifiedKey;
  /** The read's raw result (null when it found nothing); undefined when no read ran (none asked, or not allowed). */
  data: unknown;
}

export async function admitKey(request: Request, context: RequestContext, needs: KeyNeeds = {}): Promise<Admitted> {
  const admitted = await countingFailedAttempts(request, () => verifyWithinBudget(request, context, needs));
  return admitted;
}

/**
 * Refuses a request without a well-formed key as admitKey would (401, counted against the address), without
 * I/O for one that has one: a route can then read its body before the key lookup, to send a read with it.
 */
export async function requireWellFormedKey(request: Request): Promise<void> {
  await countingFailedAttempts(request, async () => {
    const presented = readApiKey(request.headers);
    // The lookup hashes the key; here only a malformed one is hashed, for hashPresentedKey's refusal.
    if (!isWellFormedApiKey(presented)) hashPresentedKey(presented);
  });
}

async function verifyWithinBudget(request: Request, context: RequestContext, needs: KeyNeeds): Promise<Admitted> {
  const hashedKey = hashPresentedKey(readApiKey(request.headers));
  const now = new Date();
  const known = knownKey(hashedKey);
  if (known === undefined) {
    const { key } = await verifyKeyHash(hashedKey, { now });
    scheduleKeyUse(key);
    requireWithinBudget(key, await keyLimiter().limit(key.id), context);
    requireScope(key, needs.scope);
    const mayRead = needs.read && hasScope(key.scopes, needs.readScope ?? needs.scope);
    return { key, data: mayRead ? await needs.read!.fetchJson(key.organization.id) : undefined };
  }
  const budget = await keyLimiter().limit(known.id);
  // The read travels with the lookup only when it will be answered: within budget and with the scope.
  const mayRead = budget.success && hasScope(known.scopes, needs.readScope ?? needs.scope);
  const verified = await verifyKeyHash(hashedKey, { read: mayRead ? needs.read : undefined, now });
  scheduleKeyUse(verified.key);
  requireWithinBudget(verified.key, budget, context);
  requireScope(verified.key, needs.scope);
  return verified;
}

/** The key's rate limit, counted on its id; its headers go on every response from here on, refusals included. */
function requireWithinBudget(key: VerifiedKey, budget: StoreResult, context: RequestContext): void {
  context.logFields.key_id = key.id;
  context.countedKey = { id: key.id, organizationId: key.organization.id };
  if (budget.store === "memory-fallback") context.logFields.rate_limit_store = budget.store;
  Object.assign(context.responseHeaders, rateLimitHeaders(budget));
  if (!budget.success) {
    throw new ApiError("rate_limited", ERROR_MESSAGES.keyRateLimited);
  }
}

/**
 * Failed attempts (no key, malformed, unknown, revoked, expired) are counted per client address, and past the
 * address's budget they answer 429 instead of 401, so keys cannot be guessed at speed. Only failures are
 * refused: a valid key is served whatever its address's count, as clients behind one NAT or proxy share it.
 */
async function countingFailedAttempts<T>(request: Request, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "unauthorized")) throw error;
    Object.assign(error.headers, bearerChallenge(request.headers));
    const address = clientAddress(request.headers);
    if (!address) throw error;
    const result = await addressLimiter().limit(address);
    const headers = rateLimitHeaders(result, "per-address");
    if (result.success) {
      Object.assign(error.headers, headers);
      throw error;
    }
    throw new ApiError(
      "rate_limited",
      `Too many requests without a valid API key from this address. Retry after the time in ${RETRY_AFTER_HEADER}.`,
      { headers },
    );
  }
}

/**
 * RFC 9110 §11.6.1 and RFC 6750 §3: a challenge on every 401, REST and MCP alike. No resource_metadata: Sundown
 * has no OAuth, only API keys. A request that presented a credential gets error="invalid_token"; one that
 * presented none, just the scheme.
 */
function bearerChallenge(headers: Headers): Record<string, string> {
  const presented = headers.has(AUTHORIZATION_HEADER) || headers.has(API_KEY_HEADER);
  return { "WWW-Authenticate": presented ? 'Bearer realm="sundown", error="invalid_token"' : 'Bearer realm="sundown"' };
}

/**
 * Refreshes last_used_at off the response's critical path, for every request a working key made: also one refused
 * for its scope or its rate limit, which the usage counts show too (a key "never used" must not have requests).
 */
function scheduleKeyUse(key: VerifiedKey): void {
  if (!key.needsTouch) return;
  const write = () =>
    recordKeyUse(key).catch((error: Error) =>
      log("warn", "could not record key use", { key_id: key.id, error: error.message }),
    );
  try {
    after(write);
  } catch {
    // Outside a Next request scope (tests, scripts): write without holding the response.
    void write();
  }
}
