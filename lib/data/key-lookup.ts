import type { Scope } from "@/lib/auth/scopes";
import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import type { BoundRead } from "./organization-read";

// The API key's part of every keyed request, in SQL on lib/db/sql.ts: the lookup (with the request's read)
// and the once-a-minute last-use write. Prisma (lib/data/api-keys.ts) keeps creating, listing and revoking.

/** The fields needed to authenticate a request. */
export interface KeyRow {
  id: string;
  scopes: string[];
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  organization: { id: string; name: string };
}

/** A read to run with the key lookup, on the key's organization, only if the key is active and has the scope. */
export interface KeyedRead {
  scope: Scope;
  read: BoundRead<unknown>;
}

interface Row {
  id: string;
  scopes: string[];
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  organization_id: string;
  organization_name: string;
  data?: unknown;
}

const KEY_SELECT = `k.id, k.scopes, k.revoked_at, k.expires_at, k.last_used_at,
  o.id AS organization_id, o.name AS organization_name`;
const KEY_FROM = `FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.hashed_key = $1`;

const keyOnly: Statement = { name: "key", text: `SELECT ${KEY_SELECT} ${KEY_FROM}` };

// One statement per read, built once. The data is gated in SQL on everything the row decides (revocation,
// expiry, scope), so a key that may not read it never makes the database do the work. Expiry is compared
// with the application's clock ($3), the same instant keyStatus() in JavaScript then judges the key by.
const withReadStatements = new Map<string, Statement>();

function statementWithRead(read: BoundRead<unknown>["read"]): Statement {
  let statement = withReadStatements.get(read.name);
  if (!statement) {
    const data = read.json({ organizationId: "k.organization_id", arg: (i) => `$${i + 4}` });
    const mayRead = `k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $3::timestamptz) AND $2 = ANY(k.scopes)`;
    statement = {
      name: `key+${read.name}`,
      text: `SELECT ${KEY_SELECT}, CASE WHEN ${mayRead} THEN ${data} END AS data ${KEY_FROM}`,
    };
    withReadStatements.set(read.name, statement);
  }
  return statement;
}

/**
 * The key with this hash (one probe of the unique index), and when asked, a read of its organization's
 * data in the same round trip. `data` is the read's raw JSON, or null when the key may not read it at `now`.
 */
export async function findApiKeyByHash(
  hashedKey: string,
  { keyed, now }: { keyed?: KeyedRead; now: Date },
): Promise<{ key: KeyRow; data: unknown } | null> {
  const sql = await getSql();
  const [row] = keyed
    ? await sql.rows<Row>(statementWithRead(keyed.read.read), [hashedKey, keyed.scope, now, ...keyed.read.args])
    : await sql.rows<Row>(keyOnly, [hashedKey]);
  if (!row) return null;
  return {
    key: {
      id: row.id,
      scopes: row.scopes,
      revokedAt: row.revoked_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      organization: { id: row.organization_id, name: row.organization_name },
    },
    data: row.data ?? null,
  };
}

const touch: Statement = {
  name: "key-touch",
  text: `UPDATE api_keys SET last_used_at = $3
    WHERE id = $1 AND organization_id = $2 AND (last_used_at IS NULL OR last_used_at < $3::timestamptz - interval '1 minute')`,
};

/** Records use at most once a minute per key; the condition makes concurrent writers harmless. */
export async function touchApiKey(keyId: string, organizationId: string, now = new Date()): Promise<void> {
  await (await getSql()).rows(touch, [keyId, organizationId, now]);
}
