import { hash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

// Key format: sdn_sk_<32 base62 random><6 base62 CRC32 of the random part>.
// The checksum lets us refuse a mistyped or made-up key without touching the database,
// and the fixed prefix lets secret scanners recognise a leaked key.

export const KEY_PREFIX = "sdn_sk_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PATTERN = /^sdn_sk_[0-9A-Za-z]{38}$/;
export const KEY_PATTERN_SOURCE = "^sdn_sk_[0-9A-Za-z]{38}$";

export interface GeneratedApiKey {
  /** The full key: shown to its creator once, never stored. */
  secret: string;
  hashedKey: string;
  /** Safe to display: prefix, first four and last four characters. */
  hint: string;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksumOf(random: string): string {
  let n = crc32(random);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function hashApiKey(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function keyHint(secret: string): string {
  const body = secret.slice(KEY_PREFIX.length);
  return `${KEY_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export function generateApiKey(): GeneratedApiKey {
  const random = randomBase62(RANDOM_LENGTH);
  const secret = `${KEY_PREFIX}${random}${checksumOf(random)}`;
  return { secret, hashedKey: hashApiKey(secret), hint: keyHint(secret) };
}

/** True when the text has the key's shape and a matching checksum. Costs no I/O. */
export function isWellFormedApiKey(text: string): boolean {
  if (!KEY_PATTERN.test(text)) return false;
  const body = text.slice(KEY_PREFIX.length);
  return checksumOf(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}
