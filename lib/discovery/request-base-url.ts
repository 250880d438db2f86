import { baseUrl } from "@/lib/http/base-url";

/** baseUrl() for server components, which see the request's headers but not the Request itself. */
export function baseUrlFromHeaders(headers: Headers): string {
  const host = headers.get("host") ?? "localhost";
  return baseUrl(new Request(`http://${host}/`, { headers }));
}
