import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { resolveAuthSecret } from "@/lib/auth/server-secret";
import { cursorPayload, type Cursor } from "./cursor";

// Signing page cursors (lib/operations/cursor.ts says what one records): with a key derived from the server secret,
// so every instance reads every other's cursors and none can be forged or edited. Server-side only: a client (the
// stdio package) reads a cursor's shape but never holds the secret.

// Held as a KeyObject, not the Buffer it is derived as: Node 24's createHmac asks whether an object key is a
// KeyObject, then a CryptoKey, each by a private-field check that throws when it is not, so a Buffer costs two
// stack traces per signature (~10 µs, more inside a deep request stack; bench/findings.md). A KeyObject passes the
// first check at once (tests/integration/request-exceptions.test.ts).
let signingKey: KeyObject | undefined;

function sign(payload: string): Buffer {
  signingKey ??= createSecretKey(createHmac("sha256", resolveAuthSecret()).update("sundown/page-cursor/v1").digest());
  return createHmac("sha256", signingKey).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(cursor: Omit<Cursor, "text">): string {
  const payload = cursorPayload(cursor);
  return `${payload}.${sign(payload).toString("base64url")}`;
}

/** True when this server signed the cursor: nobody edited or forged it. */
export function isAuthentic(cursor: Cursor): boolean {
  const [payload, signature] = cursor.text.split(".") as [string, string];
  const given = Buffer.from(signature, "base64url");
  const expected = sign(payload);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
