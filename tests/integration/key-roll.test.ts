import { beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { hashPresentedKey, verifyKeyHash } from "@/lib/admission/verify-api-key";
import { listActivity } from "@/lib/data/activity";
import { API_KEY_SUBJECT, listApiKeys, revokeApiKey, rollApiKey } from "@/lib/data/api-keys";
import { findApiKeyByHash } from "@/lib/data/key-lookup";
import { teamRead } from "@/lib/data/team";
import { getDb } from "@/lib/db";
import { KEY_OVERLAPS } from "@/lib/schemas/key-overlap";
import { bearer, mintKey } from "../helpers/keys";
import { call } from "../helpers/request";

// Rolling a key (issue 15): the old key keeps working until the overlap ends, then is refused as revoked.
// The clock is the test's: every check below passes `now`, the instant the request path also judges by.

const actor = { label: "test" };
const read = teamRead();

/** What a keyed request sees at `now`: the key's verdict, and whether the SQL gate let the read through. */
async function requestAt(secret: string, now: Date) {
  const hashed = hashPresentedKey(secret);
  const gate = await findApiKeyByHash(hashed, { read, now });
  try {
    const { data } = await verifyKeyHash(hashed, { read, now });
    return { verdict: "accepted", sqlRead: gate?.data !== null, read: data !== null };
  } catch (error) {
    return { verdict: (error as Error).message, sqlRead: gate?.data !== null, read: false };
  }
}

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

beforeAll(async () => {
  await getDb();
});

describe("rolling a key", () => {
  it.each(Object.entries(KEY_OVERLAPS))(
    "with overlap %s the old key works until exactly now + overlap, the new one from the start",
    async (_overlap, overlapMs) => {
      const old = await mintKey();
      const now = new Date();
      const { key, previous } = await rollApiKey(old.organization.id, old.id, { overlapMs, actor, now });
      expect(previous).toEqual({ id: old.id, stopsAt: at(now, overlapMs) });

      const lastWorkingInstant = at(now, overlapMs - 1);
      if (overlapMs > 0) {
        expect(await requestAt(old.key, now)).toEqual({ verdict: "accepted", sqlRead: true, read: true });
        expect(await requestAt(old.key, lastWorkingInstant)).toEqual({
          verdict: "accepted",
          sqlRead: true,
          read: true,
        });
      }
      const refused = { verdict: "The API key has been revoked.", sqlRead: false, read: false };
      expect(await requestAt(old.key, at(now, overlapMs))).toEqual(refused);
      expect(await requestAt(old.key, at(now, overlapMs + 60_000))).toEqual(refused);

      for (const instant of [now, lastWorkingInstant, at(now, overlapMs + 60_000)]) {
        expect(await requestAt(key.key, instant)).toEqual({ verdict: "accepted", sqlRead: true, read: true });
      }
    },
  );

  it("an overlap longer than the key's remaining life stops the old key at its expiry, and says so", async () => {
    const now = new Date();
    const expiresAt = at(now, 2 * 3_600_000);
    const old = await mintKey("acme", ["team:read"], expiresAt);
    const { previous } = await rollApiKey(old.organization.id, old.id, { overlapMs: KEY_OVERLAPS["24h"], actor, now });
    expect(previous).toEqual({ id: old.id, stopsAt: expiresAt });
    const listed = (await listApiKeys(old.organization.id, now)).find((k) => k.id === old.id);
    expect(listed).toMatchObject({ status: "rolled", revokedAt: expiresAt });
    expect(await requestAt(old.key, at(expiresAt, -1))).toMatchObject({ verdict: "accepted" });
    expect(await requestAt(old.key, expiresAt)).toMatchObject({ read: false });
  });

  it("the new key has the old one's name, scopes and expiry, and both are listed with their state", async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const old = await mintKey("acme", ["team:read"], expiresAt);
    const now = new Date();
    const { key } = await rollApiKey(old.organization.id, old.id, { overlapMs: KEY_OVERLAPS["24h"], actor, now });
    expect(key).toMatchObject({ name: old.name, scopes: ["team:read"], expiresAt });
    expect(key.key).not.toBe(old.key);

    const listed = await listApiKeys(old.organization.id, now);
    expect(listed.find((k) => k.id === old.id)).toMatchObject({
      status: "rolled",
      revokedAt: at(now, KEY_OVERLAPS["24h"]),
      rolledTo: { id: key.id, hint: key.hint },
    });
    expect(listed.find((k) => k.id === key.id)).toMatchObject({ status: "active", rolledTo: null, createdBy: "test" });
    expect(
      (await listApiKeys(old.organization.id, at(now, KEY_OVERLAPS["24h"]))).find((k) => k.id === old.id),
    ).toMatchObject({ status: "revoked" });

    const lines = await listActivity(old.organization.id, [API_KEY_SUBJECT]);
    expect(lines.find((line) => line.detail?.hint === key.hint)).toMatchObject({
      action: "rolled",
      subject: { type: API_KEY_SUBJECT, id: key.id, label: old.name },
      actor: "test",
      detail: { replaces: old.hint, old_key_stops_at: at(now, KEY_OVERLAPS["24h"]).toISOString() },
    });
  });

  it("during the overlap, the API answers both keys the same", async () => {
    const old = await mintKey();
    const rolled = await rollApiKey(old.organization.id, old.id, { overlapMs: KEY_OVERLAPS["1h"], actor });
    for (const [handler, path] of [
      [getMe, "/api/v1/me"],
      [listTeam, "/api/v1/team"],
    ] as const) {
      const before = await call(handler, path, { headers: bearer(old.key) });
      const after = await call(handler, path, { headers: bearer(rolled.key.key) });
      expect(before.status).toBe(200);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(before.body);
      expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    }
  });

  it("a revoked, expired or already rolled key cannot be rolled, and nothing is written", async () => {
    const revoked = await mintKey();
    await revokeApiKey(revoked.organization.id, revoked.id, actor);
    const expired = await mintKey("acme", ["team:read"], new Date(Date.now() + 60_000));
    const rolled = await mintKey();
    await rollApiKey(rolled.organization.id, rolled.id, { overlapMs: KEY_OVERLAPS["7d"], actor });
    const cases = [
      [revoked, new Date(), "This key is revoked; create a new key instead."],
      [expired, new Date(Date.now() + 60_000), "This key has expired; create a new key instead."],
      [rolled, new Date(), "This key has already been rolled; roll its replacement instead."],
    ] as const;
    for (const [key, now, message] of cases) {
      const before = await listApiKeys(key.organization.id, now);
      await expect(rollApiKey(key.organization.id, key.id, { overlapMs: 0, actor, now })).rejects.toMatchObject({
        code: "conflict",
        status: 409,
        message,
      });
      expect(await listApiKeys(key.organization.id, now)).toEqual(before);
    }
  });

  it("another organization's key is not found, and stays untouched", async () => {
    const globex = await mintKey("globex");
    const acme = await mintKey("acme");
    await expect(rollApiKey(acme.organization.id, globex.id, { overlapMs: 0, actor })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await requestAt(globex.key, new Date())).verdict).toBe("accepted");
  });

  it("two rolls of one key at once: one lands, the other writes nothing", async () => {
    const old = await mintKey();
    const outcomes = await Promise.allSettled([
      rollApiKey(old.organization.id, old.id, { overlapMs: KEY_OVERLAPS["1h"], actor }),
      rollApiKey(old.organization.id, old.id, { overlapMs: KEY_OVERLAPS["1h"], actor }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect((await listApiKeys(old.organization.id)).filter((k) => k.name === old.name)).toHaveLength(2);
  });

  it("revoking a rolled key during its overlap stops it at once; revoking again keeps that instant", async () => {
    const old = await mintKey();
    const rolledAt = new Date();
    await rollApiKey(old.organization.id, old.id, { overlapMs: KEY_OVERLAPS["7d"], actor, now: rolledAt });
    const revokedAt = at(rolledAt, 1000);
    const named = { name: old.name, hint: old.hint };
    expect(await revokeApiKey(old.organization.id, old.id, actor, revokedAt)).toEqual({ revokedAt, ...named });
    expect((await requestAt(old.key, revokedAt)).verdict).toBe("The API key has been revoked.");
    expect((await requestAt(old.key, at(revokedAt, -1))).verdict).toBe("accepted");
    expect(await revokeApiKey(old.organization.id, old.id, actor, at(revokedAt, 5000))).toEqual({
      revokedAt,
      ...named,
    });
  });

  it("the activity trail keeps what the roll set after the old key is revoked during the overlap", async () => {
    const old = await mintKey();
    const rolledAt = new Date();
    const { key } = await rollApiKey(old.organization.id, old.id, {
      overlapMs: KEY_OVERLAPS["7d"],
      actor,
      now: rolledAt,
    });
    const setByTheRoll = at(rolledAt, KEY_OVERLAPS["7d"]);
    await revokeApiKey(old.organization.id, old.id, actor, at(rolledAt, 1000));

    const lines = await listActivity(old.organization.id, [API_KEY_SUBJECT]);
    expect(lines.find((line) => line.action === "rolled" && line.detail?.hint === key.hint)).toMatchObject({
      detail: { replaces: old.hint, old_key_stops_at: setByTheRoll.toISOString() },
    });
    // The revocation is a line of its own, at its own time.
    expect(lines.find((line) => line.action === "revoked" && line.detail?.hint === old.hint)).toMatchObject({
      subject: { id: old.id, label: old.name },
      createdAt: expect.any(Date),
    });
  });
});
