import { isWellFormedApiKey } from "@/lib/auth/api-key";
import { hashIngestToken, isWellFormedIngestToken } from "@/lib/auth/ingest-token";
import { acceptsIngest, findIngestTokenByHash } from "@/lib/data/ingest-tokens";
import type { OrganizationRef } from "@/lib/data/organizations";
import { ApiError } from "@/lib/errors";

// Verifying the token a call to POST /ingest/v1 presents: its shape and checksum first (no I/O), then its row.
// The ingest surface takes ingest tokens only, as the read API takes API keys only: each refuses the other's
// secret by its prefix, before any lookup.

export interface VerifiedIngestToken {
  id: string;
  /** Its name: the activity trail's actor for what it sends. */
  name: string;
  organization: OrganizationRef;
  /** True when last_used_at is older than a minute and should be refreshed (off the critical path). */
  needsTouch: boolean;
}

const TOUCH_INTERVAL_MS = 60_000;

const INGEST_REFUSALS = {
  apiKey:
    "This is an API key: API keys read /api/v1 and MCP only. POST /ingest/v1 takes an ingest token (sdn_it_…): `sundown ingest-tokens create` makes one.",
  invalid: "The ingest token is not valid.",
  revoked: "The ingest token has been revoked.",
} as const;

/** The working token, or 401 saying why not (an API key, malformed, unknown, revoked). */
export async function verifyIngestToken(secret: string, now = new Date()): Promise<VerifiedIngestToken> {
  if (isWellFormedApiKey(secret)) throw new ApiError("unauthorized", INGEST_REFUSALS.apiKey);
  if (!isWellFormedIngestToken(secret)) throw new ApiError("unauthorized", INGEST_REFUSALS.invalid);
  const row = await findIngestTokenByHash(hashIngestToken(secret));
  if (!row) throw new ApiError("unauthorized", INGEST_REFUSALS.invalid);
  if (!acceptsIngest(row, now)) throw new ApiError("unauthorized", INGEST_REFUSALS.revoked);
  return {
    id: row.id,
    name: row.name,
    organization: row.organization,
    needsTouch: !row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS,
  };
}
