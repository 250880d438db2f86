import { after } from "next/server";
import {
  hashPresentedKey,
  knownKey,
  recordKeyUse,
  requireScope,
  verifyKeyHash,
  type VerifiedKey,
} from "@/lib/admission/verify-api-key";
import { hasScope, type Scope } from "@/lib/auth/scopes";
import type { ReadRequest } from "@/lib/data/organization-read";
import { finishPrepared, prepareAnswer, type PreparedAnswer } from "@/lib/operations/answers";
import { OPERATIONS, type KeyedOperationName, type OperationInput, type OperationOutput } from "@/lib/operations/table";
import { API_KEY_HEADER, AUTHORIZATION_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import { log } from "@/lib/log";
import type { StoreResult } from "@/lib/ratelimit/limiter";
import { clientAddress } from "@/lib/ratelimit/client-address";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import { addressLimiter, keyLimiter } from "@/lib/ratelimit/policies";
import { rateLimitHeaders } from "./rate-limit";
import { readApiKey } from "./read-api-key";
import type { RequestContext } from "./with-request";

// Admission of a keyed request, REST and MCP alike, top to bottom in the contract's order: key (401) → the key's
// rate limit (429) → scope (403) → parameters (400) → the read → existence (404). Key and limit refusals are the
// request's and are thrown; from the scope on they are the call's, returned for the caller to answer in its own
// way (REST as an HTTP error, MCP as a tool error).
//
// Round trips. The parameters are parsed first (no I/O), so the operation's read can travel with the key lookup.
// A key this process has looked up before has a known id and scopes, so its budget is counted and its scope
// decided before the lookup: admitted, one statement (the key lookup carrying the read); refused, the key lookup
// alone, so a revoked or expired key still answers 401 before 429 and a 429 costs no read. A key this process has
// not seen (its first request on a fresh instance) gets its id from the lookup, so the read cannot travel with it:
// lookup, budget, then the read on its own — two round trips, once per key per instance.

/** A keyed operation called by a request: its name, and how to parse its input (no I/O; throws its refusal). */
export interface KeyedCall<N extends KeyedOperationName = KeyedOperationName> {
  name: N;
  input: () => OperationInput<N>;
}

/** A call's answer, or what refused it from the scope on (an ApiError, or a failure of ours) for its caller to throw. */
export type CallResult<N extends KeyedOperationName = KeyedOperationName> =
  { output: OperationOutput<N> } | { refused: unknown };

export interface Admitted<N extends KeyedOperationName = KeyedOperationName> {
  key: VerifiedKey;
  /** The call's answer (absent when the request named no call). */
  result?: CallResult<N>;
}

/**
 * Admits a request and answers its call. `keyHash` is the request's key as presentedKeyHash gave it, for a route
 * that checked the key before reading its body; without it, the key is read here.
 */
export async function admitCall<N extends KeyedOperationName>(
  request: Request,
  context: RequestContext,
  call?: KeyedCall<N>,
  keyHash?: string,
): Promise<Admitted<N>> {
  const scope = call && OPERATIONS[call.name].scope;
  let prepared: PreparedAnswer<N> | undefined;
  let invalid: unknown;
  try {
    prepared = call && prepareAnswer(call.name, call.input());
  } catch (error) {
    invalid = error;
  }
  const hashedKey = keyHash ?? (await presentedKeyHash(request));
  const { key, data, granted } = await countingFailedAttempts(request, () =>
    verifyWithinBudget(hashedKey, context, scope, prepared?.read),
  );
  if (!call) return { key };
  try {
    if (!granted) requireScope(key, scope);
    if (!prepared) throw invalid;
    return { key, result: { output: finishPrepared(prepared, key, data) } };
  } catch (refused) {
    return { key, result: { refused } };
  }
}

/**
 * The request's key, hashed: no I/O, so a route can check the key before it reads the body (to send a read with
 * the key lookup). A request without a well-formed key is refused here (401, counted against its address).
 */
export function presentedKeyHash(request: Request): Promise<string> {
  return countingFailedAttempts(request, async () => hashPresentedKey(readApiKey(request.headers)));
}

/** The working key within its budget, whether it has the call's scope (decided here, once), and the read's data. */
async function verifyWithinBudget(
  hashedKey: string,
  context: RequestContext,
  scope: Scope | undefined,
  read: ReadRequest<unknown> | undefined,
): Promise<{ key: VerifiedKey; data: unknown; granted: boolean }> {
  const now = new Date();
  const known = knownKey(hashedKey);
  if (known === undefined) {
    const { key } = await verifyKeyHash(hashedKey, { now });
    scheduleKeyUse(key);
    requireWithinBudget(key, await keyLimiter().limit(key.id), context);
    const granted = hasScope(key.scopes, scope);
    return { key, granted, data: granted && read ? await read.fetchJson(key.organization.id) : undefined };
  }
  const budget = await keyLimiter().limit(known.id);
  // A key's scopes never change: known before the lookup, they decide whether the read travels with it.
  const granted = hasScope(known.scopes, scope);
  const verified = await verifyKeyHash(hashedKey, { read: budget.success && granted ? read : undefined, now });
  scheduleKeyUse(verified.key);
  requireWithinBudget(verified.key, budget, context);
  return { ...verified, granted };
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
export async function countingFailedAttempts<T>(request: Request, attempt: () => Promise<T>): Promise<T> {
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
