import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteConnection } from "@/lib/db";
import { applyMigrations, readMigrations, type Migration } from "@/lib/db/migrate";

// The migration that stores what a roll set with its event fills it in for rolls recorded before it, from the old
// key's revoked_at where that still holds what the roll set, on a database of its own that stops just before it.

const MIGRATION = "20261205000000_key_roll_event_stop";
const ROLL_ENDS = "2026-12-01T10:00:00.000Z";
const REVOKED = "2026-11-30T09:00:00.000Z";

let pglite: PGlite;
let migrations: Migration[];
let at: number;

/** Inserts rows and returns the ids it was told to return. */
async function insert(sql: string, values: unknown[]): Promise<string> {
  const { rows } = await pglite.query<{ id: string }>(`${sql} RETURNING id`, values);
  return rows[0]!.id;
}

async function key(organization: string, name: string, revokedAt: string | null, rolledTo: string | null) {
  return insert(
    `INSERT INTO api_keys (organization_id, name, hashed_key, hint, scopes, revoked_at, rolled_to_id)
     VALUES ($1, $2, $3, $4, '{team:read}', $5, $6)`,
    [organization, name, `hash-${name}`, `hint-${name}`, revokedAt, rolledTo],
  );
}

async function event(organization: string, apiKey: string, action: "created" | "rolled" | "revoked") {
  return insert(
    `INSERT INTO api_key_events (organization_id, api_key_id, action, actor_label) VALUES ($1, $2, $3, 'test')`,
    [organization, apiKey, action],
  );
}

beforeAll(async () => {
  pglite = await PGlite.create();
  migrations = await readMigrations();
  at = migrations.findIndex((m) => m.name === MIGRATION);
  expect(at).toBeGreaterThan(0);
  await applyMigrations(pgliteConnection(pglite), migrations.slice(0, at));
});

afterAll(async () => {
  await pglite?.close();
});

describe(MIGRATION, () => {
  it("keeps each recorded roll's stop where the old key still holds it, and leaves unknown what a revocation moved", async () => {
    const org = await insert(`INSERT INTO organizations (slug, name) VALUES ('m', 'M')`, []);
    // A roll whose overlap ran its course (or still runs): the old key's revoked_at is the roll's.
    const replacement = await key(org, "kept", null, null);
    const rolled = await key(org, "kept-old", ROLL_ENDS, replacement);
    // A roll whose old key was revoked during the overlap: its revoked_at is the revocation's, not the roll's.
    const successor = await key(org, "cut", null, null);
    const cut = await key(org, "cut-old", REVOKED, successor);
    const events = {
      created: await event(org, rolled, "created"),
      roll: await event(org, replacement, "rolled"),
      cutRoll: await event(org, successor, "rolled"),
      revocation: await event(org, cut, "revoked"),
    };

    // This migration only: a later one moves these lines to activity_events (one-activity-trail-migration.test.ts).
    await applyMigrations(pgliteConnection(pglite), migrations.slice(0, at + 1));

    const { rows } = await pglite.query<{ id: string; stops: Date | null }>(
      `SELECT id, old_key_stops_at AS stops FROM api_key_events WHERE organization_id = $1`,
      [org],
    );
    const stops = Object.fromEntries(rows.map((r) => [r.id, r.stops?.toISOString() ?? null]));
    expect({
      created: stops[events.created],
      roll: stops[events.roll],
      cutRoll: stops[events.cutRoll],
      revocation: stops[events.revocation],
    }).toEqual({ created: null, roll: ROLL_ENDS, cutRoll: null, revocation: null });
  });
});
