import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, isWellFormedApiKey, KEY_PATTERN, KEY_PREFIX, keyHint } from "@/lib/auth/api-key";

describe("API key format", () => {
  it("generates sdn_sk_ keys of 32 random + 6 checksum base62 characters", () => {
    const { secret } = generateApiKey();
    expect(secret).toMatch(KEY_PATTERN);
    expect(secret.startsWith(KEY_PREFIX)).toBe(true);
    expect(secret).toHaveLength(KEY_PREFIX.length + 38);
  });

  it("never repeats a key", () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().secret));
    expect(keys.size).toBe(2000);
  });

  it("accepts its own keys", () => {
    for (let i = 0; i < 200; i++) expect(isWellFormedApiKey(generateApiKey().secret)).toBe(true);
  });

  it("refuses a key whose checksum does not match (one character changed)", () => {
    const { secret } = generateApiKey();
    const i = KEY_PREFIX.length + 5;
    const changed = secret.slice(0, i) + (secret[i] === "a" ? "b" : "a") + secret.slice(i + 1);
    expect(isWellFormedApiKey(changed)).toBe(false);
  });

  it("refuses a key with a tampered checksum", () => {
    const { secret } = generateApiKey();
    const changed = secret.slice(0, -1) + (secret.endsWith("0") ? "1" : "0");
    expect(isWellFormedApiKey(changed)).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["wrong prefix", "sk_live_" + "a".repeat(38)],
    ["too short", KEY_PREFIX + "a".repeat(37)],
    ["too long", KEY_PREFIX + "a".repeat(39)],
    ["non-base62 character", KEY_PREFIX + "a".repeat(37) + "-"],
    ["unicode", KEY_PREFIX + "ä".repeat(38)],
    ["surrounding space", ` ${KEY_PREFIX}${"a".repeat(38)}`],
  ])("refuses a malformed key: %s", (_label, text) => {
    expect(isWellFormedApiKey(text)).toBe(false);
  });

  it("hashes with SHA-256 as lowercase hex, and the hash is not the key", () => {
    const { secret, hashedKey } = generateApiKey();
    expect(hashedKey).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(secret)).toBe(hashedKey);
    expect(hashedKey).not.toContain(secret.slice(KEY_PREFIX.length, KEY_PREFIX.length + 8));
  });

  it("shows only the prefix, first four and last four characters in the hint", () => {
    const { secret, hint } = generateApiKey();
    expect(hint).toBe(keyHint(secret));
    expect(hint).toMatch(/^sdn_sk_[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/);
    expect(hint.startsWith(secret.slice(0, KEY_PREFIX.length + 4))).toBe(true);
    expect(hint.endsWith(secret.slice(-4))).toBe(true);
  });
});
