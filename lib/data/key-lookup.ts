import { withSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import type { ReadRequest } from "./organization-read";

// The API key's part of every keyed request, in SQL on lib/db/sql.ts: the lookup (with the request's read)
// and the once-a-minute last-use write. Prisma (lib/data/api-keys.ts) keeps creating, listing and revoking.

/** The fields needed to authenticate a request. */
interface KeyRow {
  id: string;
  scopes: string[];
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  organization: { id: string; name: string };
  /** The organization's IANA time zone, in which its days are counted (a cursor's digest holds it). */
  timeZone: string;
}

interface Row {
  id: string;
  scopes: string[];
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  organization_id: string;
  organization_name: string;
  organization_time_zone: string;
  data?: unknown;
}

const KEY_SELECT = `k.id, k.scopes, k.revoked_at, k.expires_at, k.last_used_at,
  o.id AS organization_id, o.name AS organization_name, o.time_zone AS organization_time_zone`;
const KEY_FROM = `FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.hashed_key = $1`;

const keyOnly: Statement = { name: "key", text: `SELECT ${KEY_SELECT} ${KEY_FROM}` };

// One statement per read, built once. The data is gated in SQL on what the row decides at `now` (revocation or
// the end of a roll's overlap, expiry), so a key that may not read never makes the database do the work. Both
// instants are compared with the application's clock ($2), the same instant keyStatus() (lib/data/key-status.ts)
// then judges the key by: it works while $2 < revoked_at and $2 < expires_at. Scopes are not
// the row's to decide: they never change for a key, and the caller attaches a read only for a key that has
// the scope (lib/admission/admit.ts).
const withReadStatements = new Map<string, Statement>();

export function statementWithRead(read: ReadRequest<unknown>): Statement {
  let statement = withReadStatements.get(read.name);
  if (!statement) {
    const active = `(k.revoked_at IS NULL OR k.revoked_at > $2::timestamptz) AND (k.expires_at IS NULL OR k.expires_at > $2::timestamptz)`;
    statement = {
      name: `key+${read.name}`,
      planEachRun: read.planEachRun,
      text: `SELECT ${KEY_SELECT}, CASE WHEN ${active} THEN ${read.sqlAt("k.organization_id", 3, "o")} END AS data ${KEY_FROM}`,
    };
    withReadStatements.set(read.name, statement);
  }
  return statement;
}

/**
 * The key with this hash (one probe of the unique index), and when asked, a read of its organization's
 * data in the same round trip. `data` is the read's raw JSON (null: the read found nothing, or the key may not read
 * at `now`), or undefined when no read was asked for.
 */
export function findApiKeyByHash(
  hashedKey: string,
  { read, now }: { read?: ReadRequest<unknown>; now: Date },
): Promise<FoundKey | null> {
  // Continuations rather than async/await: every keyed request takes this path, and each await is a promise more
  // per request (tests/integration/admission-allocations.test.ts counts them).
  return withSql((sql) => {
    // Sent as text: pg's own conversion of a Date formats it field by field in local time, dearer by far.
    const nowText = now.toISOString();
    const lookup = read
      ? sql.rows<Row>(statementWithRead(read), [hashedKey, nowText, ...read.args])
      : sql.rows<Row>(keyOnly, [hashedKey]);
    return lookup.then(([row]) => {
      // A contacts version this process does not hold yet: once per change, the lookup again with the details.
      const withContacts = row && read?.withContactsFor(row.data);
      if (!withContacts) return foundKey(row, read);
      return sql
        .rows<Row>(statementWithRead(withContacts), [hashedKey, nowText, ...withContacts.args])
        .then(([again]) => foundKey(again, read));
    });
  });
}

interface FoundKey {
  key: KeyRow;
  data: unknown;
}

function foundKey(row: Row | undefined, read: ReadRequest<unknown> | undefined): FoundKey | null {
  if (!row) return null;
  return {
    key: {
      id: row.id,
      scopes: row.scopes,
      revokedAt: row.revoked_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      organization: { id: row.organization_id, name: row.organization_name },
      timeZone: row.organization_time_zone,
    },
    data: read ? (row.data ?? null) : undefined,
  };
}

const touch: Statement = {
  name: "key-touch",
  text: `UPDATE api_keys SET last_used_at = $3
    WHERE id = $1 AND organization_id = $2 AND (last_used_at IS NULL OR last_used_at < $3::timestamptz - interval '1 minute')`,
};

/** Records use at most once a minute per key; the condition makes concurrent writers harmless. */
export async function touchApiKey(keyId: string, organizationId: string, now = new Date()): Promise<void> {
  await withSql((sql) => sql.rows(touch, [keyId, organizationId, now]));
}
