import { describe, expect, it } from "vitest";
import { EXPIRY_WARNING_DAYS, expiresWithinDays, keyStatus } from "@/lib/data/key-status";

// The one rule a key is judged by, at an instant: the request path, the settings page and the CLI all read it.

const NOW = new Date("2026-11-25T12:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms);
const DAY = 86_400_000;

describe("keyStatus at the boundaries", () => {
  it.each([
    [{ revokedAt: null, expiresAt: null }, "active"],
    [{ revokedAt: at(1), expiresAt: null }, "rolled"],
    [{ revokedAt: NOW, expiresAt: null }, "revoked"],
    [{ revokedAt: at(-1), expiresAt: null }, "revoked"],
    [{ revokedAt: null, expiresAt: at(1) }, "active"],
    [{ revokedAt: null, expiresAt: NOW }, "expired"],
    [{ revokedAt: at(DAY), expiresAt: NOW }, "expired"],
    [{ revokedAt: NOW, expiresAt: NOW }, "revoked"],
  ] as const)("%o → %s", (key, status) => {
    expect(keyStatus(key, NOW)).toBe(status);
  });
});

describe("expiresWithinDays", () => {
  it.each([
    [at(1), 1],
    [at(DAY), 1],
    [at(DAY + 1), 2],
    [at(EXPIRY_WARNING_DAYS * DAY), EXPIRY_WARNING_DAYS],
    [at(EXPIRY_WARNING_DAYS * DAY + 1), null],
    [NOW, null],
  ] as const)("a key expiring at %s is flagged with %s", (expiresAt, days) => {
    expect(expiresWithinDays({ revokedAt: null, expiresAt }, NOW)).toBe(days);
  });

  it("flags a rolled key in its overlap, not a revoked one, nor one without expiry", () => {
    expect(expiresWithinDays({ revokedAt: at(DAY), expiresAt: at(2 * DAY) }, NOW)).toBe(2);
    expect(expiresWithinDays({ revokedAt: at(-1), expiresAt: at(2 * DAY) }, NOW)).toBeNull();
    expect(expiresWithinDays({ revokedAt: null, expiresAt: null }, NOW)).toBeNull();
  });
});
