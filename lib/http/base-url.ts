import { isIPv6 } from "node:net";
import { getEnv, type Env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { mergeVary } from "./vary";
import type { RequestContext } from "./with-request";

// A DNS name (RFC 1123 labels, optional root dot) or a bracketed IPv6 literal, then an optional port:
// nothing that could turn a link into another path, user info or script.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[([0-9a-f:.]+)\])(?::([0-9]{1,5}))?$/i;

/** The host[:port] in lower case, or undefined when the value is not one. */
export function parseHost(value: string | null | undefined): string | undefined {
  const match = value && value.length <= 260 ? HOST.exec(value) : null;
  if (!match) return undefined;
  const [, ipv6, port] = match;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return value!.toLowerCase();
}

function trustsForwardedHeaders(env: Env): boolean {
  return env.SUNDOWN_TRUST_PROXY || env.serverless;
}

const firstValue = (header: string | null) => header?.split(",")[0]?.trim();

/**
 * The host the client addressed. Under `next start`, request.url always names the server's own bind address
 * (localhost), so the Host header is the truth; a request without one (HTTP/1.0, a hand-built Request) falls
 * back to the URL. A malformed Host is the client's error (RFC 9112 §3.2: 400), never a link.
 */
function requestHost(request: Request): string {
  const header = request.headers.get("host");
  if (header === null) return new URL(request.url).host;
  const host = parseHost(header);
  if (!host) throw new ApiError("invalid_parameter", "The Host header is not a valid host name (host or host:port).");
  return host;
}

/**
 * The public base URL: SUNDOWN_URL when set, else the Host the client addressed, over http. X-Forwarded-Host
 * and -Proto are honoured only behind a proxy we are told to trust (SUNDOWN_TRUST_PROXY, or a serverless
 * platform whose edge sets them): discovery documents are publicly cacheable, and a client-chosen host or
 * scheme in them would let anyone poison a shared cache. request.url's scheme is never read, because Next
 * derives it from the client's X-Forwarded-Proto.
 */
export function baseUrl(request: Request): string {
  const env = getEnv();
  if (env.SUNDOWN_URL) return env.SUNDOWN_URL.replace(/\/+$/, "");
  if (!trustsForwardedHeaders(env)) return `http://${requestHost(request)}`;
  const forwardedHost = parseHost(firstValue(request.headers.get("x-forwarded-host")));
  const forwardedProto = firstValue(request.headers.get("x-forwarded-proto"));
  const proto = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : "http";
  return `${proto}://${forwardedHost ?? requestHost(request)}`;
}

/** The request headers baseUrl() reads, none when SUNDOWN_URL fixes it. */
export function baseUrlVary(): string | undefined {
  const env = getEnv();
  if (env.SUNDOWN_URL) return undefined;
  return trustsForwardedHeaders(env) ? "Host, X-Forwarded-Host, X-Forwarded-Proto" : "Host";
}

/**
 * baseUrl() for a route whose response carries links: the response also says it varies with the headers the
 * base came from, so a shared cache keyed on the URL never hands one host's links to a client of another.
 */
export function routeBaseUrl(request: Request, context: RequestContext): string {
  const vary = baseUrlVary();
  if (vary) context.responseHeaders.Vary = mergeVary(context.responseHeaders.Vary, vary);
  return baseUrl(request);
}
