import { getEnv } from "@/lib/env";

const HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;

/** The public base URL: SUNDOWN_URL when set, else derived from the request (honouring X-Forwarded-Host/-Proto). */
export function baseUrl(request: Request): string {
  const configured = getEnv().SUNDOWN_URL;
  if (configured) return configured.replace(/\/+$/, "");
  const url = new URL(request.url);
  const forwardedHost = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const forwardedProto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  const host = forwardedHost && HOST.test(forwardedHost) ? forwardedHost : url.host;
  const proto = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : url.protocol.slice(0, -1);
  return `${proto}://${host}`;
}
