import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteConnection } from "@/lib/db";
import { applyMigrations, readMigrations, type Migration } from "@/lib/db/migrate";

// The migration that moves the keys' and the endpoints' trails into activity_events, on a database of its own that
// stops just before it: every line arrives with its id, actor and time, and the facts each page showed of it (a key's
// name and hint, a roll's replaced key and stop time, an endpoint's URL, a disabling's reason); the two tables go.

const MIGRATION = "20261226200000_one_activity_trail";
const CREATED = "2026-11-01T08:00:00.000Z";
const ROLLED = "2026-11-02T09:00:00.000Z";
const STOPS = "2026-11-03T09:00:00.000Z";

let pglite: PGlite;
let migrations: Migration[];

async function insert(sql: string, values: unknown[]): Promise<string> {
  const { rows } = await pglite.query<{ id: string }>(`${sql} RETURNING id`, values);
  return rows[0]!.id;
}

async function key(organization: string, name: string, rolledTo: string | null = null) {
  return insert(
    `INSERT INTO api_keys (organization_id, name, hashed_key, hint, scopes, revoked_at, rolled_to_id)
     VALUES ($1, $2, $3, $4, '{team:read}', $5, $6)`,
    [organization, name, `hash-${name}`, `hint-${name}`, rolledTo ? STOPS : null, rolledTo],
  );
}

async function keyEvent(organization: string, apiKey: string, action: string, at: string, stops: string | null = null) {
  return insert(
    `INSERT INTO api_key_events (organization_id, api_key_id, action, actor_label, created_at, old_key_stops_at)
     VALUES ($1, $2, $3, 'cli', $4, $5)`,
    [organization, apiKey, action, at, stops],
  );
}

async function endpointEvent(
  organization: string,
  endpoint: string | null,
  action: string,
  actor: { userId: string | null; label: string },
  detail: string | null = null,
) {
  return insert(
    `INSERT INTO webhook_endpoint_events
       (organization_id, endpoint_id, endpoint_url, action, detail, actor_user_id, actor_label, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [organization, endpoint, `https://hooks.example/${action}`, action, detail, actor.userId, actor.label, CREATED],
  );
}

beforeAll(async () => {
  pglite = await PGlite.create();
  migrations = await readMigrations();
  const at = migrations.findIndex((m) => m.name === MIGRATION);
  expect(at).toBeGreaterThan(0);
  await applyMigrations(pgliteConnection(pglite), migrations.slice(0, at));
});

afterAll(async () => {
  await pglite?.close();
});

describe(MIGRATION, () => {
  it("moves every key and endpoint line into activity_events with its facts, then drops the two tables", async () => {
    const org = await insert(`INSERT INTO organizations (slug, name) VALUES ('t', 'T')`, []);
    const member = await insert(`INSERT INTO members (organization_id, name, role) VALUES ($1, 'Ana', 'lead')`, [org]);
    const user = await insert(`INSERT INTO users (email, member_id) VALUES ('ana@t.example', $1)`, [member]);

    const successor = await key(org, "new");
    const rolled = await key(org, "old", successor);
    const oldRoll = await key(org, "older-roll");
    const endpoint = await insert(
      `INSERT INTO webhook_endpoints (organization_id, url, events, secret_sealed) VALUES ($1, $2, '{}', 'x')`,
      [org, "https://hooks.example/created"],
    );
    const ids = {
      created: await keyEvent(org, rolled, "created", CREATED),
      roll: await keyEvent(org, successor, "rolled", ROLLED, STOPS),
      rollUnknownStop: await keyEvent(org, oldRoll, "rolled", ROLLED),
      revoked: await keyEvent(org, rolled, "revoked", ROLLED),
      added: await endpointEvent(org, endpoint, "created", { userId: user, label: "Ana" }),
      gone: await endpointEvent(org, endpoint, "disabled", { userId: null, label: "sundown" }, "gone"),
      deleted: await endpointEvent(org, null, "deleted", { userId: null, label: "cli" }),
    };

    await applyMigrations(pgliteConnection(pglite), migrations);

    const { rows } = await pglite.query<Record<string, unknown>>(
      `SELECT id, subject_type, subject_id, subject_label, action, detail, actor_user_id, actor_label, created_at
       FROM activity_events WHERE organization_id = $1`,
      [org],
    );
    const line = (id: string) => rows.find((row) => row.id === id);
    expect(rows).toHaveLength(Object.keys(ids).length);
    expect(line(ids.created)).toMatchObject({
      subject_type: "api_key",
      subject_id: rolled,
      subject_label: "old",
      action: "created",
      detail: { hint: "hint-old" },
      actor_user_id: null,
      actor_label: "cli",
      created_at: new Date(CREATED),
    });
    expect(line(ids.roll)).toMatchObject({
      subject_id: successor,
      subject_label: "new",
      action: "rolled",
      detail: { hint: "hint-new", replaces: "hint-old", old_key_stops_at: STOPS },
      created_at: new Date(ROLLED),
    });
    // A roll whose replaced key is not known (or whose stop was never recorded) says only what it knows.
    expect(line(ids.rollUnknownStop)).toMatchObject({ action: "rolled", detail: { hint: "hint-older-roll" } });
    expect(line(ids.revoked)).toMatchObject({ subject_id: rolled, action: "revoked", detail: { hint: "hint-old" } });
    expect(line(ids.added)).toMatchObject({
      subject_type: "webhook_endpoint",
      subject_id: endpoint,
      subject_label: "https://hooks.example/created",
      action: "created",
      detail: null,
      actor_user_id: user,
      actor_label: "Ana",
    });
    expect(line(ids.gone)).toMatchObject({ action: "disabled", detail: { reason: "gone" }, actor_label: "sundown" });
    expect(line(ids.deleted)).toMatchObject({
      subject_id: null,
      subject_label: "https://hooks.example/deleted",
      action: "deleted",
    });

    const { rows: tables } = await pglite.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_name IN ('api_key_events', 'webhook_endpoint_events')`,
    );
    expect(tables).toEqual([]);
  });
});
