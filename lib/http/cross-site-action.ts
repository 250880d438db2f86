// Next refuses a server-action POST whose Origin names another host than the one addressed, but by throwing,
// which answers 500. This is the same test, asked first so the refusal can be a 403. It mirrors Next's own
// (app-render/action-handler.ts): a POST that may be an action (a Next-Action header, or a multipart form),
// an Origin present, and its host equal to the first X-Forwarded-Host, else to Host.

/** A POST that may be a server action: a Next-Action header (from JavaScript), or a multipart form (without). */
export function mayBeServerAction(request: Request): boolean {
  if (request.method !== "POST") return false;
  return (
    request.headers.has("next-action") || (request.headers.get("content-type") ?? "").startsWith("multipart/form-data")
  );
}

function originHost(origin: string): string | undefined {
  if (origin === "null") return "null";
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export function isCrossSiteServerAction(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null || !mayBeServerAction(request)) return false;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  return !host || originHost(origin) !== host;
}
