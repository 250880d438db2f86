import { after } from "next/server";
import { admit, type Admission, type RequestCall } from "@/lib/admission/admit";
import { hashPresentedKey, recordKeyUse, type VerifiedKey } from "@/lib/admission/verify-api-key";
import type { KeyedOperationName } from "@/lib/operations/table";
import { API_KEY_HEADER, AUTHORIZATION_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import { log } from "@/lib/log";
import { clientAddress } from "@/lib/ratelimit/client-address";
import { ApiError, ERROR_MESSAGES } from "@/lib/errors";
import { addressLimiter } from "@/lib/ratelimit/policies";
import { rateLimitHeaders } from "./rate-limit";
import { readApiKey } from "./read-api-key";
import type { RequestContext } from "./with-request";

// Admission over HTTP, for the REST routes and the MCP endpoint alike: the key read from its header, failed
// attempts counted per address, and what admission decided written onto the request (rate-limit headers, log
// fields, the key's usage, its last-use write), and the key's rate limit enforced. Admission itself knows no HTTP:
// lib/admission/admit.ts.

/**
 * Admits a request and answers its call (lib/admission/admit.ts). `keyHash` is the request's key as
 * presentedKeyHash gave it, for a route that checked the key before reading its body; without it, the key is
 * read here. Past the key's budget the request is refused with 429, after its headers and usage are recorded.
 */
export function admitRequest<N extends KeyedOperationName>(
  request: Request,
  context: RequestContext,
  call?: RequestCall<N>,
  keyHash?: string,
): Promise<Admission<N>> {
  // Promise chains rather than async/await: every keyed request takes this path, and each async layer is a promise
  // more per request (tests/integration/admission-allocations.test.ts counts them).
  let hashed: string;
  try {
    hashed = keyHash ?? hashPresentedKey(readApiKey(request.headers));
  } catch (error) {
    return refusedAttempt(request, error);
  }
  return admit(hashed, call).then(
    (admission) => recordAdmission(admission, context),
    (error: unknown) => refusedAttempt(request, error),
  );
}

/**
 * The request's key, hashed: no I/O, so a route can check the key before it reads the body (to send a read with
 * the key lookup). A request without a well-formed key is refused here (401, counted against its address).
 */
export async function presentedKeyHash(request: Request): Promise<string> {
  try {
    return hashPresentedKey(readApiKey(request.headers));
  } catch (error) {
    return refusedAttempt(request, error);
  }
}

/**
 * A working key's request: its rate-limit headers go on every response from here on, refusals included, and its
 * usage counts it, a request past the key's budget too (refused here).
 */
function recordAdmission<N extends KeyedOperationName>(admission: Admission<N>, context: RequestContext): Admission<N> {
  const { key, budget } = admission;
  context.logFields.key_id = key.id;
  context.countedKey = { id: key.id, organizationId: key.organization.id };
  if (budget.store === "memory-fallback") context.logFields.rate_limit_store = budget.store;
  Object.assign(context.responseHeaders, rateLimitHeaders(budget));
  scheduleKeyUse(key);
  if (!budget.success) throw new ApiError("rate_limited", ERROR_MESSAGES.keyRateLimited);
  return admission;
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
    return refusedAttempt(request, error);
  }
}

/** Rejects with what failedAttempt makes of `error`. */
async function refusedAttempt(request: Request, error: unknown): Promise<never> {
  throw await failedAttempt(request, error);
}

/** What to throw for `error`: a 401 with its challenge, or past the address's budget a 429; others as they are. */
async function failedAttempt(request: Request, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError && error.code === "unauthorized")) return error;
  Object.assign(error.headers, bearerChallenge(request.headers));
  const address = clientAddress(request.headers);
  if (!address) return error;
  const result = await addressLimiter().limit(address);
  const headers = rateLimitHeaders(result, "per-address");
  if (result.success) {
    Object.assign(error.headers, headers);
    return error;
  }
  return new ApiError(
    "rate_limited",
    `Too many requests without a valid API key from this address. Retry after the time in ${RETRY_AFTER_HEADER}.`,
    { headers },
  );
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
