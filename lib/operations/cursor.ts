import { hash } from "node:crypto";
import { UUID_SHAPE } from "@/lib/schemas/common";

// Page cursors: opaque to clients, but a signed record of where the last page ended (its last report's
// generated_at and id: a keyset position, so pages stay stable while new reports arrive), which organization
// it belongs to, and a digest of the filters it was made for. Signed with a key derived from the server
// secret, so every instance reads every other's cursors and none can be forged or edited.
//
// Reading a cursor needs no secret (the stdio server passes cursors through to the REST API unchanged);
// the server signs them and checks the signature and the organization once it knows the key
// (lib/operations/cursor-signature.ts, lib/operations/page-continuation.ts).

export interface Cursor {
  /** The last report of the page: generated_at (ISO 8601 with milliseconds, as served) and id. */
  generatedAt: string;
  id: string;
  organizationId: string;
  /** filtersDigest() of the filters the page was asked with. */
  filters: string;
  /** The cursor as the client sent it. */
  text: string;
}

const VERSION = 1;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PAYLOAD_MAX_LENGTH = 400;
const SIGNATURE_LENGTH = 22;
const FORMAT = new RegExp(`^([A-Za-z0-9_-]{1,${PAYLOAD_MAX_LENGTH}})\\.([A-Za-z0-9_-]{${SIGNATURE_LENGTH}})$`);
/** The cursor's shape and longest length, for typed clients to check before sending (OpenAPI, tool schemas). */
export const CURSOR_PATTERN = FORMAT.source;
export const CURSOR_MAX_LENGTH = PAYLOAD_MAX_LENGTH + 1 + SIGNATURE_LENGTH;

/** A short, stable digest of a page's filters (absent ones left out), for a cursor to be checked against. */
export function filtersDigest(filters: Record<string, string | number | boolean | undefined>): string {
  const present = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return hash("sha256", JSON.stringify(present), "base64url").slice(0, 16);
}

/** The payload a cursor signs: what it records, as its text carries it before the signature. */
export function cursorPayload(cursor: Omit<Cursor, "text">): string {
  const fields = [VERSION, cursor.organizationId, cursor.filters, cursor.generatedAt, cursor.id];
  return Buffer.from(JSON.stringify(fields)).toString("base64url");
}

/** What a cursor says, unverified; undefined when it is not shaped like one of ours at all. */
export function decodeCursor(text: string): Cursor | undefined {
  const match = FORMAT.exec(text);
  if (!match) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 5 || fields[0] !== VERSION) return undefined;
  const [, organizationId, filters, generatedAt, id] = fields as unknown[];
  if (typeof organizationId !== "string" || !UUID_SHAPE.test(organizationId)) return undefined;
  if (typeof filters !== "string" || typeof id !== "string" || !UUID_SHAPE.test(id)) return undefined;
  if (typeof generatedAt !== "string" || !INSTANT.test(generatedAt) || Number.isNaN(Date.parse(generatedAt)))
    return undefined;
  return { organizationId, filters, generatedAt, id, text };
}
