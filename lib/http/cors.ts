import { API_KEY_HEADER, AUTHORIZATION_HEADER, REQUEST_ID_HEADER } from "@/lib/header-names";
import { withRequest } from "./with-request";

// CORS preflights of the public API. The policy, and the headers every API response carries, are
// with-request.ts's (CORS_HEADERS), which adds them to each response it sends.

export interface PreflightOptions {
  methods?: string[];
  headers?: string[];
  /** Throws an ApiError for a request the route refuses, so its preflight does not advertise it either. */
  admit?: (request: Request) => void;
}

const API_METHODS = ["GET", "HEAD", "OPTIONS"];
const API_REQUEST_HEADERS = [AUTHORIZATION_HEADER, API_KEY_HEADER, "If-None-Match", REQUEST_ID_HEADER];

/** An OPTIONS handler answering CORS preflight requests with 204. */
export function corsPreflight({ methods = API_METHODS, headers = API_REQUEST_HEADERS, admit }: PreflightOptions = {}) {
  return withRequest(async (request) => {
    admit?.(request);
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Methods": methods.join(", "),
        "Access-Control-Allow-Headers": headers.join(", "),
        "Access-Control-Max-Age": "7200",
        "Cache-Control": "public, max-age=7200",
        ...(admit ? { Vary: "Origin" } : {}),
      },
    });
  });
}

/** The preflight of every read-only API route: `export { OPTIONS } from "@/lib/http/cors"`. */
export const OPTIONS = corsPreflight();
