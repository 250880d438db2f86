// /settings leads each role on: founders and leads to their first section, members to their day.
export const DEFAULT_AFTER_SIGN_IN = "/settings";

/**
 * Where to go after signing in: a path on this site only. Anything else (absolute URLs, protocol-relative
 * `//host`, backslash tricks, control characters) falls back to the default, so the sign-in page cannot be
 * used as an open redirect.
 */
export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 2048) return DEFAULT_AFTER_SIGN_IN;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return DEFAULT_AFTER_SIGN_IN;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_AFTER_SIGN_IN;
  if (value.startsWith("/signin") || value.startsWith("/api/")) return DEFAULT_AFTER_SIGN_IN;
  return value;
}

export function signInPath(returnTo: string): string {
  return `/signin?${new URLSearchParams({ callbackUrl: safeCallbackPath(returnTo) })}`;
}

/**
 * next-auth's redirect rule: `url` (a path, or an absolute URL on `baseUrl`'s origin) as an absolute URL on
 * `baseUrl`, held to the same rule as the sign-in page's callback path.
 */
export function callbackUrlOn(baseUrl: string, url: string): string {
  const origin = new URL(baseUrl).origin;
  let path: string | undefined = url;
  if (!url.startsWith("/")) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    path = parsed?.origin === origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : undefined;
  }
  return `${origin}${safeCallbackPath(path)}`;
}
