import { NextResponse } from "next/server";

// Only the signed-in pages: the key settings and the sign-in form must never be framed by another site
// (a framed "Revoke key" button is a clickjacking target), and never be kept by shared caches. The API
// (/api/v1, /api/mcp) does not pass through here.
export function proxy() {
  const response = NextResponse.next();
  response.headers.set("X-Frame-Options", "DENY");
  response.headers.set("Content-Security-Policy", "frame-ancestors 'none'");
  response.headers.set("Referrer-Policy", "same-origin");
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

export const config = {
  matcher: ["/signin", "/settings", "/settings/:path*"],
};
