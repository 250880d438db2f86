import { NextResponse, type NextRequest } from "next/server";
import { isCrossSiteServerAction } from "@/lib/http/cross-site-action";
import { ApiError } from "@/lib/errors";
import { readRequestId } from "@/lib/http/request-id";
import { errorResponse } from "@/lib/http/responses";

// Pages only: the API (/api/**) and the discovery documents do not pass through here.
// - Every page refuses a cross-site server-action POST with a 403 before Next turns it into a 500.
// - The signed-in pages (key settings, sign-in form) must never be framed by another site (a framed
//   "Revoke key" button is a clickjacking target), and never be kept by shared caches.
const PRIVATE_PAGES = /^\/(signin|settings)(\/|$)/;

export function proxy(request: NextRequest) {
  if (isCrossSiteServerAction(request)) {
    const requestId = readRequestId(request.headers);
    const refusal = errorResponse(
      new ApiError("forbidden", "Cross-site form submission refused: the Origin does not match the host of this page."),
      requestId,
    );
    refusal.headers.set("X-Request-Id", requestId);
    return refusal;
  }
  const response = NextResponse.next();
  if (!PRIVATE_PAGES.test(request.nextUrl.pathname)) return response;
  response.headers.set("X-Frame-Options", "DENY");
  response.headers.set("Content-Security-Policy", "frame-ancestors 'none'");
  response.headers.set("Referrer-Policy", "same-origin");
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

export const config = {
  matcher: ["/((?!api(?:/|$)|_next/|openapi\\.json$|llms\\.txt$|\\.well-known/|favicon\\.ico$).*)"],
};
