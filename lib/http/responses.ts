import { hash } from "node:crypto";
import { ApiError, errorBody } from "@/lib/errors";
import { API_KEY_HEADER, AUTHORIZATION_HEADER } from "@/lib/header-names";
import { mergeVary } from "./vary";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
export const MARKDOWN_CONTENT_TYPE = "text/markdown; charset=utf-8";
export const TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";

export function errorResponse(error: ApiError, requestId: string): Response {
  return new Response(JSON.stringify(errorBody(error, requestId)), {
    status: error.status,
    headers: { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store", ...error.headers },
  });
}

function strongEtag(body: string): string {
  return `"${hash("sha256", body, "base64url").slice(0, 32)}"`;
}

// If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/"x" matches "x".
const opaqueTag = (tag: string) => tag.trim().replace(/^W\//, "");

function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => opaqueTag(tag) === etag);
}

interface CacheOptions {
  cache: "private" | "public";
  maxAge?: number;
  headers?: Record<string, string>;
}

/**
 * A JSON response with a strong ETag; answers 304 when the client already holds this representation.
 * `cache` is "private" for keyed data (revalidate every time) or "public" for discovery documents, which
 * shared caches may keep for `maxAge` seconds (default 300).
 */
export function jsonResponse(request: Request, data: unknown, options: CacheOptions): Response {
  return representationResponse(request, JSON.stringify(data), JSON_CONTENT_TYPE, options);
}

/** A body that stays the same while the process runs, with its ETag taken once rather than on every response. */
export interface FixedBody {
  text: string;
  etag: string;
}

export function fixedBody(text: string): FixedBody {
  return { text, etag: strongEtag(text) };
}

/**
 * One representation of a resource, with the same caching rules as jsonResponse. The ETag is taken from these
 * very bytes, so two representations of one resource (JSON and markdown) never share a validator.
 */
export function representationResponse(
  request: Request,
  body: string | FixedBody,
  contentType: string,
  { cache, maxAge = 300, headers = {} }: CacheOptions,
): Response {
  const { text, etag } = typeof body === "string" ? fixedBody(body) : body;
  // Keyed data depends on the key; a caller's Vary adds to that, never replaces it.
  const vary = mergeVary(cache === "private" ? `${AUTHORIZATION_HEADER}, ${API_KEY_HEADER}` : undefined, headers.Vary);
  const common = {
    ETag: etag,
    "Cache-Control": cache === "private" ? "private, no-cache" : `public, max-age=${maxAge}`,
    ...headers,
    ...(vary ? { Vary: vary } : {}),
  };
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers: common });
  }
  return new Response(text, { status: 200, headers: { "Content-Type": contentType, ...common } });
}
