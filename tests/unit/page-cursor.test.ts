import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Instances of two releases serve side by side during a rolling deploy: a cursor one signed, the other must
// accept. The signature is an HMAC over the payload with a key derived from the server secret; this pins it.

const SECRET = "cursor-test-secret-cursor-test-secret";
const POSITION = {
  organizationId: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b",
  filters: "T1PNoYwrqgwDVLtf",
  generatedAt: "2026-11-20T17:00:00.000Z",
  id: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6c",
};
// Signed by 74f8764 (before the signing key was held as a KeyObject) under SECRET.
const SIGNED_BY_AN_EARLIER_RELEASE =
  "WzEsIjNmMmI2YzFlLThhNGQtNGUyZi05YjdhLTFjMmQzZTRmNWE2YiIsIlQxUE5vWXdycWd3RFZMdGYiLCIyMDI2LTExLTIwVDE3OjAwOjAwLjAwMFoiLCIzZjJiNmMxZS04YTRkLTRlMmYtOWI3YS0xYzJkM2U0ZjVhNmMiXQ.4J8IKvmnfcUx4JmINpu5oQ";

let cursors: typeof import("@/lib/operations/cursor") & typeof import("@/lib/operations/cursor-signature");

beforeAll(async () => {
  vi.stubEnv("NEXTAUTH_SECRET", SECRET);
  cursors = { ...(await import("@/lib/operations/cursor")), ...(await import("@/lib/operations/cursor-signature")) };
});
afterAll(() => vi.unstubAllEnvs());

describe("page cursors", () => {
  it("are signed as an earlier release signed them, and its cursors verify", () => {
    expect(cursors.encodeCursor(POSITION)).toBe(SIGNED_BY_AN_EARLIER_RELEASE);
    const cursor = cursors.decodeCursor(SIGNED_BY_AN_EARLIER_RELEASE);
    expect(cursor).toEqual({ ...POSITION, text: SIGNED_BY_AN_EARLIER_RELEASE });
    expect(cursors.isAuthentic(cursor!)).toBe(true);
  });

  it("do not verify once edited", () => {
    const [payload, signature] = SIGNED_BY_AN_EARLIER_RELEASE.split(".") as [string, string];
    const later = Buffer.from(
      JSON.stringify([1, POSITION.organizationId, POSITION.filters, "2026-11-21T17:00:00.000Z", POSITION.id]),
    ).toString("base64url");
    const edited = cursors.decodeCursor(`${later}.${signature}`);
    expect(edited?.generatedAt).toBe("2026-11-21T17:00:00.000Z");
    expect(cursors.isAuthentic(edited!)).toBe(false);
    const flipped = `${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    expect(cursors.isAuthentic(cursors.decodeCursor(flipped)!)).toBe(false);
  });
});
