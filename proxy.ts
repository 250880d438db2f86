import { NextResponse, type NextRequest } from "next/server";
import { discoveryLinkHeader } from "@/lib/discovery/links";
import { baseUrlFromHeaders } from "@/lib/discovery/request-base-url";
import { prefersMarkdown } from "@/lib/http/accept";
import { isCrossSiteServerAction } from "@/lib/http/cross-site-action";
import { ApiError } from "@/lib/errors";
import { loggedRoute } from "@/lib/http/logged-route";
import { readRequestId } from "@/lib/http/request-id";
import { errorResponse } from "@/lib/http/responses";
import { serverActionBodyRefusal } from "@/lib/http/server-action-body";
import { REQUEST_ID_HEADER } from "@/lib/header-names";
import { log } from "@/lib/log";

// Pages only: the API (/api/**), the ingest endpoint (/ingest/**) and the discovery documents do not pass through here.
// - Every page refuses a cross-site server-action POST with a 403, and one whose body Next could not decode with a
//   400 (lib/http/server-action-body.ts), before Next turns either into a 500; both in the API's JSON error shape,
//   with a request id, and logged.
// - The signed-in pages (key settings, sign-in form, one-time links, /setup) must never be framed by another site (a framed
//   "Revoke key" button is a clickjacking target), and never be kept by shared caches.
// - The sign-in form and the sign-out button post to next-auth even without JavaScript, and so need next-auth's
//   CSRF cookie: it is issued here because a page cannot set cookies (lib/session/next-auth.ts nextAuthCsrfToken).
// - The entry pages (/ and /docs) point agents at the discovery documents with Link headers, which a page
//   cannot set either, and answer Accept: text/markdown with the guide as markdown (app/docs.md), which a page
//   cannot render.
const PRIVATE_PAGES = /^\/(signin|settings|invite|setup|forgot-password)(\/|$)/;
const ENTRY_PAGES = new Set(["/", "/docs"]);
const MARKDOWN_GUIDE = "/docs.md";

export async function proxy(request: NextRequest) {
  const refusal = isCrossSiteServerAction(request)
    ? new ApiError("forbidden", "Cross-site form submission refused: the Origin does not match the host of this page.")
    : await serverActionBodyRefusal(request);
  if (refusal) return refuse(request, refusal);
  const { pathname } = request.nextUrl;
  if (ENTRY_PAGES.has(pathname)) return entryPage(request);
  const response = NextResponse.next();
  if (!PRIVATE_PAGES.test(pathname)) return response;
  response.headers.set("X-Frame-Options", "DENY");
  response.headers.set("Content-Security-Policy", "frame-ancestors 'none'");
  response.headers.set("Referrer-Policy", "same-origin");
  response.headers.set("Cache-Control", "private, no-store");
  if (request.method === "GET") {
    // Loaded here, not at the top: the proxy is loaded at start-up, next-auth only matters for these pages' forms.
    const { nextAuthCsrfToken } = await import("@/lib/session/next-auth");
    await nextAuthCsrfToken(response);
  }
  return response;
}

function refuse(request: NextRequest, error: ApiError): Response {
  const requestId = readRequestId(request.headers);
  const response = errorResponse(error, requestId);
  response.headers.set(REQUEST_ID_HEADER, requestId);
  log("info", "request", {
    request_id: requestId,
    method: request.method,
    route: loggedRoute(request.nextUrl.pathname),
    status: error.status,
  });
  return response;
}

/** / and /docs: HTML or, to an agent asking for it, the markdown guide; either way with the discovery links. */
function entryPage(request: NextRequest): NextResponse {
  const wantsMarkdown = ["GET", "HEAD"].includes(request.method) && prefersMarkdown(request.headers.get("accept"));
  const response = wantsMarkdown ? NextResponse.rewrite(new URL(MARKDOWN_GUIDE, request.nextUrl)) : NextResponse.next();
  // No Vary here: Next sets a page's Vary itself, over this one; the markdown route says Vary: Accept instead.
  response.headers.set("Link", discoveryLinkHeader(baseUrlFromHeaders(request.headers)));
  return response;
}

export const config = {
  matcher: [
    "/((?!api(?:/|$)|ingest(?:/|$)|_next/|openapi\\.json$|llms\\.txt$|llms-full\\.txt$|robots\\.txt$|docs\\.md$|\\.well-known/|favicon\\.ico$).*)",
  ],
};
