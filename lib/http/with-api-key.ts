import { after } from "next/server";
import type { z } from "zod";
import { readApiKey } from "@/lib/auth/read-api-key";
import type { Scope } from "@/lib/auth/scopes";
import type { KeyedRead } from "@/lib/data/key-lookup";
import type { BoundRead } from "@/lib/data/organization-read";
import { recordKeyUse, requireScope, unauthorized, verifyApiKey, type VerifiedKey } from "@/lib/auth/verify-api-key";
import { log } from "@/lib/log";
import { ApiError } from "./errors";
import { clientAddress } from "./client-address";
import { addressLimiter, keyLimiter, rateLimitHeaders } from "./rate-limit";
import { jsonResponse } from "./responses";
import { withRequest, type RequestContext } from "./with-request";

export interface KeyedContext extends RequestContext {
  request: Request;
  key: VerifiedKey;
}

export interface KeyedRouteOptions<Out extends z.ZodType> {
  /** The scope the key must carry; omit for routes any valid key may call. */
  scope?: Scope;
  /** Every response body is parsed by this schema: a second whitelist on what leaves the service. */
  output: Out;
}

export interface KeyedReadRouteOptions<Out extends z.ZodType> extends KeyedRouteOptions<Out> {
  scope: Scope;
}

export interface Authenticated {
  key: VerifiedKey;
  /** The raw result of the read that travelled with the key lookup, null if none was asked for. */
  data: unknown;
}

/**
 * Step 1: the key. Missing, malformed, unknown, revoked or expired: 401. Such failures are counted per
 * client address; past the address's budget every request from it is refused with 429 before any
 * key is looked up, so keys cannot be guessed at speed (REST and MCP both come through here).
 */
export async function authenticate(request: Request, keyed?: KeyedRead): Promise<Authenticated> {
  const address = clientAddress(request.headers);
  const limiter = address ? addressLimiter() : undefined;
  let failure: ApiError;
  try {
    const verification = await verifyApiKey(readApiKey(request.headers), { keyed });
    if (verification.ok) return { key: verification.key, data: verification.data };
    failure = unauthorized(verification.reason);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "unauthorized") throw error;
    failure = error;
  }
  if (!address || !limiter) throw failure;
  const result = await limiter.limit(address);
  const headers = rateLimitHeaders(result, "per-address");
  if (!result.success) throw addressRefused({ ...failure.headers, ...headers });
  Object.assign(failure.headers, headers);
  throw failure;
}

function addressRefused(headers: Record<string, string>): ApiError {
  return new ApiError(
    "rate_limited",
    "Too many requests without a valid API key from this address. Retry after the time in Retry-After.",
    { headers },
  );
}

/** Step 2: the key's rate limit, counted on the key's id. Its headers go on every response, refusals included. */
export async function enforceKeyRateLimit(key: VerifiedKey, context: RequestContext): Promise<void> {
  const result = await keyLimiter().limit(key.id);
  Object.assign(context.responseHeaders, rateLimitHeaders(result));
  if (result.store === "memory-fallback") context.logFields.rate_limit_store = result.store;
  if (!result.success) {
    throw new ApiError("rate_limited", "Rate limit exceeded for this API key. Retry after the time in Retry-After.");
  }
}

/** Refreshes last_used_at off the response's critical path; REST and MCP both call it once per keyed request. */
export function scheduleKeyUse(key: VerifiedKey): void {
  if (!key.needsTouch) return;
  const write = () =>
    recordKeyUse(key).catch((error: Error) => log("warn", "could not record key use", { key_id: key.id, error: error.message }));
  try {
    after(write);
  } catch {
    // Outside a Next request scope (tests, scripts): write without holding the response.
    void write();
  }
}

/** Steps 2 and 3 for a verified key: its rate limit, then the scope; then its last use is recorded. */
async function admit(key: VerifiedKey, context: RequestContext, scope: Scope | undefined): Promise<void> {
  context.logFields.key_id = key.id;
  await enforceKeyRateLimit(key, context);
  requireScope(key, scope);
  scheduleKeyUse(key);
}

function respond<Out extends z.ZodType>(request: Request, context: RequestContext, output: Out, body: z.input<Out>): Response {
  return jsonResponse(request, output.parse(body), { cache: "private", headers: context.responseHeaders });
}

/**
 * A keyed route computed from the key alone (e.g. /me): key → rate limit → scope → handler → output
 * schema → JSON with ETag.
 */
export function withApiKey<Out extends z.ZodType>(
  handler: (context: KeyedContext) => Promise<z.input<Out>>,
  options: KeyedRouteOptions<Out>,
) {
  return withRequest(async (request, context) => {
    const { key } = await authenticate(request);
    await admit(key, context, options.scope);
    return respond(request, context, options.output, await handler({ ...context, request, key }));
  });
}

/**
 * A keyed route that reads the organization's data, in one database round trip: the parameters are
 * parsed first (no I/O) so their read can travel with the key lookup, yet the checks keep their order,
 * key → rate limit → scope → parameters → existence, and a key without the scope learns nothing about
 * what exists. A request its key's budget refuses still paid for the read; it is one indexed statement.
 */
export function withKeyedRead<Out extends z.ZodType>(
  bind: (context: RequestContext) => BoundRead<z.input<Out>>,
  options: KeyedReadRouteOptions<Out>,
) {
  return withRequest(async (request, context) => {
    let bound: BoundRead<z.input<Out>> | undefined;
    let invalidParameters: unknown;
    try {
      bound = bind(context);
    } catch (error) {
      invalidParameters = error;
    }
    const { key, data } = await authenticate(request, bound && { scope: options.scope, read: bound });
    await admit(key, context, options.scope);
    if (!bound) throw invalidParameters;
    return respond(request, context, options.output, bound.read.shape(data));
  });
}
