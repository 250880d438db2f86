import { getEnv } from "@/lib/env";

const HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;

/**
 * The public base URL: SUNDOWN_URL when set, else derived from the request. X-Forwarded-Host/-Proto are
 * honoured only behind a proxy we are told to trust (SUNDOWN_TRUST_PROXY, or a serverless platform whose
 * edge sets them): discovery documents are publicly cacheable, and a client-chosen host in them would let
 * anyone poison a shared cache with links to another site.
 */
export function baseUrl(request: Request): string {
  const env = getEnv();
  if (env.SUNDOWN_URL) return env.SUNDOWN_URL.replace(/\/+$/, "");
  const url = new URL(request.url);
  let host = url.host;
  let proto = url.protocol.slice(0, -1);
  if (env.SUNDOWN_TRUST_PROXY || env.serverless) {
    const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    const forwardedProto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    if (forwardedHost && HOST.test(forwardedHost)) host = forwardedHost;
    if (forwardedProto === "https" || forwardedProto === "http") proto = forwardedProto;
  }
  return `${proto}://${host}`;
}
