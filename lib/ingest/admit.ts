import { after } from "next/server";
import { verifyIngestToken, type VerifiedIngestToken } from "@/lib/admission/verify-ingest-token";
import { touchIngestToken } from "@/lib/data/ingest-tokens";
import { ApiError } from "@/lib/errors";
import { API_KEY_HEADER, AUTHORIZATION_HEADER, RETRY_AFTER_HEADER } from "@/lib/header-names";
import { countingFailedAttempts } from "@/lib/http/admit-request";
import { rateLimitHeaders } from "@/lib/http/rate-limit";
import type { RequestContext } from "@/lib/http/with-request";
import { log } from "@/lib/log";
import { ingestTokenLimiter } from "@/lib/ratelimit/policies";

// Admission of a call to POST /ingest/v1: the token (401, failures counted per client address as the API's are,
// so tokens cannot be guessed at speed), then the token's own rate limit (429), whose headers go on every answer
// from there on. Only `Authorization: Bearer`: X-API-Key is the read API's header, for the read API's keys.

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

const INGEST_TOKEN_USAGE = `${AUTHORIZATION_HEADER}: Bearer <ingest token>`;

/** The token the request presents, or a 401 explaining what is wrong with its headers. */
export function readIngestToken(headers: Headers): string {
  if (headers.has(API_KEY_HEADER)) {
    throw new ApiError(
      "unauthorized",
      `${API_KEY_HEADER} carries API keys, which cannot send reports: send an ingest token as '${INGEST_TOKEN_USAGE}'.`,
    );
  }
  const authorization = headers.get(AUTHORIZATION_HEADER);
  if (authorization === null) {
    throw new ApiError("unauthorized", `Missing ingest token. Send it as '${INGEST_TOKEN_USAGE}'.`);
  }
  // Repeated headers arrive joined by a comma, which no token holds: refused rather than served with either.
  if (authorization.includes(",")) {
    throw new ApiError("unauthorized", `The request carries more than one ${AUTHORIZATION_HEADER} header.`);
  }
  const match = BEARER.exec(authorization);
  if (!match) throw new ApiError("unauthorized", `Use the Bearer scheme: '${INGEST_TOKEN_USAGE}'.`);
  return match[1]!;
}

/** The working token within its budget, or the refusal (401, 429) to throw. */
export async function admitIngestToken(request: Request, context: RequestContext): Promise<VerifiedIngestToken> {
  const token = await countingFailedAttempts(request, () => verifyIngestToken(readIngestToken(request.headers)));
  context.logFields.ingest_token_id = token.id;
  context.logFields.organization_id = token.organization.id;
  scheduleTokenUse(token);
  const budget = await ingestTokenLimiter().limit(token.id);
  if (budget.store === "memory-fallback") context.logFields.rate_limit_store = budget.store;
  Object.assign(context.responseHeaders, rateLimitHeaders(budget, "per-ingest-token"));
  if (!budget.success) {
    throw new ApiError(
      "rate_limited",
      `Rate limit exceeded for this ingest token. Retry after the time in ${RETRY_AFTER_HEADER}, or send more reports per call.`,
    );
  }
  return token;
}

/** Refreshes last_used_at at most once a minute, off the response's critical path. */
function scheduleTokenUse(token: VerifiedIngestToken): void {
  if (!token.needsTouch) return;
  const write = () =>
    touchIngestToken(token.id, token.organization.id).catch((error: Error) =>
      log("warn", "could not record ingest token use", { ingest_token_id: token.id, error: error.message }),
    );
  try {
    after(write);
  } catch {
    // Outside a Next request scope (tests, scripts): write without holding the response.
    void write();
  }
}
