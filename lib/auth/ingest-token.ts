import { hashSecret, secretFormat, type GeneratedSecret } from "./token-format";

// Ingest token format: sdn_it_<32 base62 random><6 base62 CRC32 of the random part> (./token-format.ts). A prefix of
// its own, so that neither surface mistakes the other's secret for its own: the read API refuses an ingest token as
// malformed before any lookup, and the ingest endpoint an API key.

const INGEST_TOKEN_FORMAT = secretFormat("sdn_it_");

export const INGEST_TOKEN_PATTERN_SOURCE = INGEST_TOKEN_FORMAT.patternSource;

export const hashIngestToken = hashSecret;

export function generateIngestToken(): GeneratedSecret {
  return INGEST_TOKEN_FORMAT.generate();
}

/** True when the text has the token's shape and a matching checksum. Costs no I/O. */
export const isWellFormedIngestToken = INGEST_TOKEN_FORMAT.isWellFormed;
