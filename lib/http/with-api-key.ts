import type { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import type { VerifiedKey } from "@/lib/auth/verify-api-key";
import type { BoundRead } from "@/lib/data/organization-read";
import { admitKey } from "./admit-key";
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
    const { key } = await admitKey(request, context, { scope: options.scope });
    return respond(request, context, options.output, await handler({ ...context, request, key }));
  });
}

/**
 * A keyed route that reads the organization's data, usually in one database round trip (lib/http/admit-key.ts):
 * the parameters are parsed first (no I/O) so their read can travel with the key lookup, yet the checks keep
 * their order, key → rate limit → scope → parameters → existence, and a key without the scope learns nothing
 * about what exists.
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
    const { data } = await admitKey(request, context, { scope: options.scope, read: bound });
    if (!bound) throw invalidParameters;
    return respond(request, context, options.output, bound.read.shape(data));
  });
}
