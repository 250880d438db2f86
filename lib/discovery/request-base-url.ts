import { baseUrl, parseHost } from "@/lib/http/base-url";

/**
 * baseUrl() for server components, which see the request's headers but not the Request itself. A page cannot
 * answer with the API's 400, so a malformed Host gives links to localhost rather than to whatever it said.
 */
export function baseUrlFromHeaders(headers: Headers): string {
  const host = parseHost(headers.get("host"));
  const forwarded = new Headers(headers);
  if (!host) forwarded.delete("host");
  return baseUrl(new Request(`http://${host ?? "localhost"}/`, { headers: forwarded }));
}
