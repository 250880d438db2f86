import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { hashPresentedKey, verifyKeyHash } from "@/lib/admission/verify-api-key";
import { listActivity } from "@/lib/data/activity";
import { API_KEY_SUBJECT, listApiKeys } from "@/lib/data/api-keys";
import { createKey, revokeKey, rollKey } from "@/lib/settings/api-key-actions";
import { mintKey } from "../helpers/keys";
import type { SessionUser } from "@/lib/data/users";
import { form, user } from "../helpers/settings-forms";

// The logic behind the settings page's server actions, called the way the actions call it: with the
// signed-in user as the database knows them (or null) and the raw form data.

/** The key check every keyed request runs: 401 (thrown) unless the key is active. */
const verifyApiKey = (secret: string) => verifyKeyHash(hashPresentedKey(secret));
const uniqueName = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;

// Opening (and on first use seeding) the database can take a while on a busy machine: not part of any test.
beforeAll(async () => {
  await getDb();
});

describe("create key action", () => {
  it("a founder creates a key that works with exactly its scopes, shown once", async () => {
    const founder = await user("founder@acme.example");
    const name = uniqueName("digest");
    const state = await createKey.forUser(founder, form({ name, scopes: ["reports:read"], expiresAt: "2099-01-01" }));
    if (state.status !== "created") throw new Error(`expected a key, got ${JSON.stringify(state)}`);
    expect(state.key).toMatchObject({ name, scopes: ["reports:read"], expiresAt: "2099-01-01T00:00:00.000Z" });
    expect(state.key.secret).toMatch(/^sdn_sk_[0-9A-Za-z]{38}$/);

    const verified = await verifyApiKey(state.key.secret);
    expect(verified).toMatchObject({
      key: { scopes: ["reports:read"], organization: { id: founder.organization.id } },
    });

    const listed = (await listApiKeys(founder.organization.id)).find((k) => k.id === state.key.id);
    expect(listed).toMatchObject({ name, createdBy: "Maya Chen", status: "active", scopes: ["reports:read"] });
    expect(JSON.stringify(listed)).not.toContain(state.key.secret);
    const lines = await listActivity(founder.organization.id, [API_KEY_SUBJECT]);
    expect(lines.find((line) => line.subject.label === name)).toMatchObject({ action: "created", actor: "Maya Chen" });
  });

  it("a lead creates keys for their own organization only, whatever the form says", async () => {
    const lead = await user("lead@globex.example");
    const name = uniqueName("lead-key");
    const state = await createKey.forUser(lead, form({ name, scopes: "team:read", organizationId: "someone-else" }));
    if (state.status !== "created") throw new Error(`expected a key, got ${JSON.stringify(state)}`);
    expect(await verifyApiKey(state.key.secret)).toMatchObject({ key: { organization: { name: "Globex" } } });
  });

  it("a member is refused and nothing is created", async () => {
    const member = await user("member@acme.example");
    const name = uniqueName("member-key");
    const state = await createKey.forUser(member, form({ name, scopes: "team:read" }));
    expect(state).toEqual({
      status: "error",
      message: "Only founders and leads can manage API keys.",
      fieldErrors: {},
      values: { name, scopes: ["team:read"], expiry: "", expiresAt: "" },
    });
    expect((await listApiKeys(member.organization.id)).some((k) => k.name === name)).toBe(false);
  });

  it("a signed-out caller is refused", async () => {
    const state = await createKey.forUser(null, form({ name: "x", scopes: "team:read" }));
    expect(state).toMatchObject({
      status: "error",
      message: "Your session has ended. Sign in again to manage API keys.",
    });
  });

  it("takes scopes and expiry by the CLI's rule: any order and repeats, days from now or a timestamp with its zone", async () => {
    const founder = await user("founder@acme.example");
    const now = new Date("2099-01-01T08:00:00.000Z");
    const inThirtyDays = await createKey.forUser(
      founder,
      form({ name: uniqueName("days"), scopes: ["team:read", "reports:read", "team:read"], expiresAt: "30d" }),
      now,
    );
    expect(inThirtyDays).toMatchObject({
      status: "created",
      key: { scopes: ["reports:read", "team:read"], expiresAt: "2099-01-31T08:00:00.000Z" },
    });
    const atTime = await createKey.forUser(
      founder,
      form({ name: uniqueName("time"), scopes: "team:read", expiresAt: "2099-06-30T18:00:00+02:00" }),
      now,
    );
    expect(atTime).toMatchObject({
      status: "created",
      key: { scopes: ["team:read"], expiresAt: "2099-06-30T16:00:00.000Z" },
    });
  });

  it("the form's expiry choices: presets are days from now, never is no expiry, a date takes the date field", async () => {
    const founder = await user("founder@acme.example");
    const now = new Date("2099-01-01T08:00:00.000Z");
    const create = (fields: Record<string, string>) =>
      createKey.forUser(founder, form({ name: uniqueName("expiry"), scopes: "team:read", ...fields }), now);
    const expiryOf = async (fields: Record<string, string>) => {
      const state = await create(fields);
      if (state.status !== "created") throw new Error(`expected a key, got ${JSON.stringify(state)}`);
      return state.key.expiresAt;
    };
    expect(await expiryOf({ expiry: "30d", expiresAt: "2099-03-01" })).toBe("2099-01-31T08:00:00.000Z");
    expect(await expiryOf({ expiry: "90d" })).toBe("2099-04-01T08:00:00.000Z");
    expect(await expiryOf({ expiry: "365d" })).toBe("2100-01-01T08:00:00.000Z");
    expect(await expiryOf({ expiry: "never", expiresAt: "2099-03-01" })).toBeNull();
    expect(await expiryOf({ expiry: "date", expiresAt: "2099-03-01" })).toBe("2099-03-01T00:00:00.000Z");
    // "On a date…" with no date is a missing date, not a key that never expires.
    const before = (await listApiKeys(founder.organization.id)).length;
    expect(await create({ expiry: "date", expiresAt: "" })).toMatchObject({
      status: "error",
      fieldErrors: { expiresAt: "Choose a date, or choose never for a key that does not expire." },
    });
    expect(await create({ expiry: "date" })).toMatchObject({ status: "error" });
    expect((await listApiKeys(founder.organization.id)).length).toBe(before);
    // No choice at all (not what the page sends): the default the page preselects and the CLI applies.
    expect(await expiryOf({})).toBe("2099-04-01T08:00:00.000Z");
    expect(await create({ expiry: "forever" })).toMatchObject({
      status: "error",
      fieldErrors: { expiresAt: expect.stringContaining("Enter a date as YYYY-MM-DD") },
      values: { expiry: "forever" },
    });
  });

  it("invalid input is refused field by field and nothing is created", async () => {
    const founder = await user("founder@acme.example");
    const before = (await listApiKeys(founder.organization.id)).length;
    const state = await createKey.forUser(founder, form({ name: " ", scopes: "admin:write", expiresAt: "2001-01-01" }));
    expect(state).toMatchObject({
      status: "error",
      message: "The key was not created. Fix the fields marked below.",
      fieldErrors: {
        name: "Enter a name for the key.",
        scopes: expect.any(String),
        expiresAt: "Choose a time in the future (a date alone means 00:00 UTC that day).",
      },
      values: { name: " ", scopes: ["admin:write"], expiresAt: "2001-01-01" },
    });
    expect((await listApiKeys(founder.organization.id)).length).toBe(before);
  });

  it("an expiry past 9999 in UTC is refused by its field and nothing is created", async () => {
    const founder = await user("founder@acme.example");
    const before = (await listApiKeys(founder.organization.id)).length;
    // 23:59:59 at UTC-5 on the last day of 9999 is 04:59:59 on 1 January 10000 in UTC.
    const state = await createKey.forUser(
      founder,
      form({ name: "far-future", scopes: "team:read", expiresAt: "9999-12-31T23:59:59-05:00" }),
    );
    expect(state).toMatchObject({
      status: "error",
      fieldErrors: { expiresAt: "Choose a time no later than 9999-12-31T23:59:59.999Z (UTC), or no expiry." },
    });
    expect((await listApiKeys(founder.organization.id)).length).toBe(before);
  });

  it("a name with terminal escapes or text-direction overrides is refused and nothing is created", async () => {
    const founder = await user("founder@acme.example");
    const before = await listApiKeys(founder.organization.id);
    for (const name of [
      "\u001b]0;pwned\u0007digest",
      "digest\u001b[2J\u001b[H",
      "digest\u009b31m",
      "invoice\u202Etxt.exe",
    ]) {
      const state = await createKey.forUser(founder, form({ name, scopes: "team:read" }));
      expect(state).toMatchObject({
        status: "error",
        fieldErrors: {
          name: "Use printable characters only: no control characters, text-direction overrides, invisible characters or line separators.",
        },
      });
    }
    expect(await listApiKeys(founder.organization.id)).toEqual(before);
  });
});

describe("revoke key action", () => {
  it("a lead revokes a key of their organization; the next verification refuses it", async () => {
    const lead = await user("lead@acme.example");
    const key = await mintKey("acme", ["reports:read"]);
    const state = await revokeKey.forUser(lead, form({ keyId: key.id }));
    expect(state).toMatchObject({ status: "revoked", keyId: key.id, revokedAt: expect.stringMatching(/Z$/) });
    await expect(verifyApiKey(key.key)).rejects.toMatchObject({
      code: "unauthorized",
      message: "The API key has been revoked.",
    });
    const lines = await listActivity(lead.organization.id, [API_KEY_SUBJECT]);
    expect(lines.find((line) => line.subject.label === key.name && line.action === "revoked")).toMatchObject({
      actor: "Dev Patel",
    });
  });

  it("a lead cannot revoke another organization's key by its id", async () => {
    const lead = await user("lead@acme.example");
    const other = await mintKey("globex", ["reports:read"]);
    const state = await revokeKey.forUser(lead, form({ keyId: other.id }));
    expect(state).toEqual({ status: "error", message: "This key does not exist in your organization." });
    expect(await verifyApiKey(other.key)).toMatchObject({ key: { id: other.id } });
    const globexLines = await listActivity(other.organization.id, [API_KEY_SUBJECT]);
    expect(globexLines.some((line) => line.subject.label === other.name && line.action === "revoked")).toBe(false);
  });

  it("a member cannot revoke, even a key of their own organization", async () => {
    const member = await user("member@acme.example");
    const key = await mintKey("acme", ["team:read"]);
    expect(await revokeKey.forUser(member, form({ keyId: key.id }))).toEqual({
      status: "error",
      message: "Only founders and leads can manage API keys.",
    });
    expect(await revokeKey.forUser(null, form({ keyId: key.id }))).toMatchObject({ status: "error" });
    expect(await verifyApiKey(key.key)).toMatchObject({ key: { id: key.id } });
  });

  it.each(["", "not-a-uuid", "00000000-0000-4000-8000-000000000000"])(
    "refuses the key id %j as not found",
    async (keyId) => {
      const founder = await user("founder@acme.example");
      expect(await revokeKey.forUser(founder, form({ keyId }))).toEqual({
        status: "error",
        message: "This key does not exist in your organization.",
      });
    },
  );

  it("revoking twice keeps the first revocation", async () => {
    const founder = await user("founder@acme.example");
    const key = await mintKey("acme", ["team:read"]);
    const first = await revokeKey.forUser(founder, form({ keyId: key.id }));
    const second = await revokeKey.forUser(founder, form({ keyId: key.id }));
    expect(second).toEqual(first);
  });
});

describe("roll key action", () => {
  it("a lead rolls a key: the new secret works at once, the old one until the chosen overlap ends", async () => {
    const lead = await user("lead@acme.example");
    const old = await mintKey("acme", ["reports:read"]);
    const now = new Date();
    const state = await rollKey.forUser(lead, form({ keyId: old.id, overlap: "1h" }), now);
    if (state.status !== "rolled") throw new Error(`expected a roll, got ${JSON.stringify(state)}`);
    expect(state).toMatchObject({
      key: { name: old.name, scopes: ["reports:read"], expiresAt: null },
      previous: { id: old.id, stopsAt: new Date(now.getTime() + 3_600_000).toISOString() },
    });
    expect(await verifyApiKey(state.key.secret)).toMatchObject({ key: { id: state.key.id } });
    const hashed = hashPresentedKey(old.key);
    expect(await verifyKeyHash(hashed, { now: new Date(now.getTime() + 3_599_999) })).toMatchObject({
      key: { id: old.id },
    });
    await expect(verifyKeyHash(hashed, { now: new Date(now.getTime() + 3_600_000) })).rejects.toMatchObject({
      message: "The API key has been revoked.",
    });
    const lines = await listActivity(lead.organization.id, [API_KEY_SUBJECT]);
    expect(
      lines.find((line) => line.detail?.hint === state.key.secret.slice(0, 11) + "…" + state.key.secret.slice(-4)),
    ).toMatchObject({ action: "rolled", actor: "Dev Patel", detail: { replaces: old.hint } });
  });

  it("refusals write nothing: a member, another organization's key, a revoked key, an unknown overlap", async () => {
    const founder = await user("founder@acme.example");
    const member = await user("member@acme.example");
    const key = await mintKey("acme", ["team:read"]);
    const globex = await mintKey("globex", ["team:read"]);
    const revoked = await mintKey("acme", ["team:read"]);
    await revokeKey.forUser(founder, form({ keyId: revoked.id }));
    const before = await listApiKeys(founder.organization.id);
    const cases: [SessionUser | null, Record<string, string>, string][] = [
      [member, { keyId: key.id, overlap: "1h" }, "Only founders and leads can manage API keys."],
      [founder, { keyId: globex.id, overlap: "1h" }, "This key does not exist in your organization."],
      [founder, { keyId: "not-a-uuid", overlap: "1h" }, "This key does not exist in your organization."],
      [founder, { keyId: revoked.id, overlap: "1h" }, "This key is revoked; create a new key instead."],
      [founder, { keyId: key.id, overlap: "2h" }, "Choose an overlap: 0, 1h, 24h, 7d."],
      [founder, { keyId: key.id }, "Choose an overlap: 0, 1h, 24h, 7d."],
    ];
    for (const [who, fields, message] of cases) {
      expect(await rollKey.forUser(who, form(fields))).toEqual({ status: "error", message });
    }
    expect(await listApiKeys(founder.organization.id)).toEqual(before);
    expect(await verifyApiKey(globex.key)).toMatchObject({ key: { id: globex.id } });
  });
});
