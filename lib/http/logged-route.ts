// What the request log records of a path. A one-time link's token travels in its path (/invite/<token>, the one
// place a secret is accepted in a URL: a link must open from an e-mail), and secrets are never logged, so the
// token's segment is logged as a placeholder.

const ONE_TIME_LINK = /^\/invite\/[^/]+/;

/** `pathname` as the log may keep it. */
export function loggedRoute(pathname: string): string {
  return pathname.replace(ONE_TIME_LINK, "/invite/[token]");
}
