import { hashSecret, secretFormat } from "./token-format";

// Key format: sdn_sk_<32 base62 random><6 base62 CRC32 of the random part> (./token-format.ts).

const API_KEY_FORMAT = secretFormat("sdn_sk_");

export const KEY_PREFIX = API_KEY_FORMAT.prefix;
export const KEY_PATTERN = API_KEY_FORMAT.pattern;
export const KEY_PATTERN_SOURCE = API_KEY_FORMAT.patternSource;

export interface GeneratedApiKey {
  /** The full key: shown to its creator once, never stored. */
  secret: string;
  hashedKey: string;
  /** Safe to display: prefix, first four and last four characters. */
  hint: string;
}

export const hashApiKey = hashSecret;

export const keyHint = API_KEY_FORMAT.hint;

export function generateApiKey(): GeneratedApiKey {
  const { secret, hashed, hint } = API_KEY_FORMAT.generate();
  return { secret, hashedKey: hashed, hint };
}

/** True when the text has the key's shape and a matching checksum. Costs no I/O. */
export const isWellFormedApiKey = API_KEY_FORMAT.isWellFormed;
