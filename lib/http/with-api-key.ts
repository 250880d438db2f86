import { after } from "next/server";
import type { z } from "zod";
import { readApiKey } from "@/lib/auth/read-api-key";
import type { Scope } from "@/lib/auth/scopes";
import { recordKeyUse, requireScope, unauthorized, verifyApiKey, type VerifiedKey } from "@/lib/auth/verify-api-key";
import { log } from "@/lib/log";
import { ApiError } from "./errors";
import { keyLimiter, rateLimitHeaders } from "./rate-limit";
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

/** Step 1: the key. Missing, malformed, unknown, revoked or expired: 401. */
export async function authenticate(request: Request): Promise<VerifiedKey> {
  const verification = await verifyApiKey(readApiKey(request.headers));
  if (!verification.ok) throw unauthorized(verification.reason);
  return verification.key;
}

/** Step 2: the key's rate limit. Its headers go on every response, refusals included. */
export async function enforceKeyRateLimit(key: VerifiedKey, context: RequestContext): Promise<void> {
  const result = await keyLimiter().limit(`key:${key.id}`);
  Object.assign(context.responseHeaders, rateLimitHeaders(result));
  if (!result.success) {
    throw new ApiError("rate_limited", "Rate limit exceeded for this API key. Retry after the time in Retry-After.");
  }
}

function scheduleKeyUse(key: VerifiedKey): void {
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

/**
 * The pipeline of every keyed route: key → rate limit → scope → handler (parameters, existence)
 * → output schema → JSON with ETag. A key without the scope learns nothing about what exists.
 */
export function withApiKey<Out extends z.ZodType>(
  handler: (context: KeyedContext) => Promise<z.input<Out>>,
  options: KeyedRouteOptions<Out>,
) {
  return withRequest(async (request, context) => {
    const key = await authenticate(request);
    context.logFields.key_id = key.id;
    await enforceKeyRateLimit(key, context);
    requireScope(key, options.scope);
    scheduleKeyUse(key);
    const data = options.output.parse(await handler({ ...context, request, key }));
    return jsonResponse(request, data, { cache: "private", headers: context.responseHeaders });
  });
}
