import { hash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

// The shape of every secret Sundown issues: <prefix><32 base62 random><6 base62 CRC32 of the random part>.
// The checksum lets a mistyped or made-up secret be refused without touching the database, and the fixed prefix
// tells secret scanners (and people) which kind of secret leaked: API keys read, ingest tokens write.

const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export interface GeneratedSecret {
  /** The full secret: shown to its creator once, never stored. */
  secret: string;
  /** SHA-256 (hex) of the secret: what is stored, and looked up by. */
  hashed: string;
  /** Safe to display: prefix, first four and last four characters. */
  hint: string;
}

export interface SecretFormat {
  prefix: string;
  pattern: RegExp;
  /** The pattern's source, for documents that describe the format (OpenAPI, the API root). */
  patternSource: string;
  generate(): GeneratedSecret;
  /** True when the text has this format's shape and a matching checksum. Costs no I/O. */
  isWellFormed(text: string): boolean;
  hint(secret: string): string;
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

export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function secretFormat(prefix: string): SecretFormat {
  const patternSource = `^${prefix}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`;
  const pattern = new RegExp(patternSource);
  const hint = (secret: string) => {
    const body = secret.slice(prefix.length);
    return `${prefix}${body.slice(0, 4)}…${body.slice(-4)}`;
  };
  return {
    prefix,
    pattern,
    patternSource,
    hint,
    generate() {
      const random = randomBase62(RANDOM_LENGTH);
      const secret = `${prefix}${random}${checksumOf(random)}`;
      return { secret, hashed: hashSecret(secret), hint: hint(secret) };
    },
    isWellFormed(text) {
      if (!pattern.test(text)) return false;
      const body = text.slice(prefix.length);
      return checksumOf(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
    },
  };
}
