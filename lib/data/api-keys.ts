import { generateApiKey } from "@/lib/auth/api-key";
import type { Scope } from "@/lib/auth/scopes";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { makersOf, recordActivity, type ActivityEntry, type Actor } from "./activity";
import { expiresWithinDays, keyStatus, type ApiKeyStatus } from "./key-status";
import type { OrganizationRef } from "./organizations";

/** Who performed a key operation: the activity trail's actor (lib/data/activity.ts). */
export type KeyActor = Actor;

export interface CreateApiKeyInput {
  organizationId: string;
  name: string;
  scopes: Scope[];
  expiresAt?: Date | null;
  actor: KeyActor;
}

export interface CreatedApiKey {
  id: string;
  /** The full key. Returned here once and never again. */
  key: string;
  name: string;
  scopes: Scope[];
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export interface ApiKeyListItem {
  id: string;
  name: string;
  scopes: string[];
  hint: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** When the key stops (or stopped) working: its revocation, or the end of its roll's overlap. */
  revokedAt: Date | null;
  createdBy: string | null;
  status: ApiKeyStatus;
  /** The key that replaced this one, when it was rolled. */
  rolledTo: { id: string; hint: string } | null;
  /** Days until a working key expires, when that is soon enough to warn about (lib/data/key-status.ts). */
  expiresWithinDays: number | null;
}

type Transaction = Prisma.TransactionClient;

/** A key's lines in the organization's activity trail (lib/data/activity.ts): the key by its name, with its hint. */
export const API_KEY_SUBJECT = "api_key";

/** The line a new key is inserted with: created, or a roll's new key with the key it replaces and when that stops. */
type InsertEvent = { action: "created" } | { action: "rolled"; replaces: string; oldKeyStopsAt: Date };

/** What a roll's line holds besides the hint: the replaced key's hint, and when the roll set it to stop. */
interface KeyRollDetail {
  replaces: string;
  /** ISO 8601; absent for a roll recorded before rolls kept it, whose old key was revoked since. */
  old_key_stops_at?: string;
}

/** Inserts a key and its line of the trail; the secret is returned once. */
async function insertKey(tx: Transaction, input: CreateApiKeyInput, event: InsertEvent): Promise<CreatedApiKey> {
  const { secret, hashedKey, hint } = generateApiKey();
  const scopes = [...new Set(input.scopes)].sort() as Scope[];
  const key = await tx.apiKey.create({
    data: {
      organizationId: input.organizationId,
      name: input.name,
      hashedKey,
      hint,
      scopes,
      expiresAt: input.expiresAt ?? null,
      createdById: input.actor.userId ?? null,
    },
    select: { id: true, name: true, hint: true, createdAt: true, expiresAt: true },
  });
  const roll: KeyRollDetail | undefined =
    event.action === "rolled"
      ? { replaces: event.replaces, old_key_stops_at: event.oldKeyStopsAt.toISOString() }
      : undefined;
  await recordActivity(tx, input.organizationId, input.actor, {
    subject: { type: API_KEY_SUBJECT, id: key.id, label: key.name },
    action: event.action,
    detail: { hint, ...roll },
  });
  return { ...key, key: secret, scopes };
}

export async function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const db = await getDb();
  return db.$transaction((tx) => insertKey(tx, input, { action: "created" }));
}

export async function listApiKeys(organizationId: string, now = new Date()): Promise<ApiKeyListItem[]> {
  const db = await getDb();
  const rows = await db.apiKey.findMany({
    where: { organizationId },
    select: {
      id: true,
      name: true,
      scopes: true,
      hint: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      rolledTo: { select: { id: true, hint: true } },
      createdBy: { select: { member: { select: { name: true } } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const unnamed = rows.filter((row) => !row.createdBy).map((row) => row.id);
  const makers = await makersOf(organizationId, API_KEY_SUBJECT, unnamed, ["created", "rolled"]);
  return rows.map(({ createdBy, ...key }) => ({
    ...key,
    createdBy: createdBy?.member.name ?? makers.get(key.id) ?? null,
    status: keyStatus(key, now),
    expiresWithinDays: expiresWithinDays(key, now),
  }));
}

/**
 * Revokes a key of this organization. A key of another organization is "not found", exactly like
 * an unknown id. Revoking an already revoked key changes nothing and reports its first revocation;
 * revoking a rolled key during its overlap ends the overlap now. The key's name and hint come back so the
 * caller can say which key it was (two keys may share a name).
 */
export async function revokeApiKey(
  organizationId: string,
  keyId: string,
  actor: KeyActor,
  now = new Date(),
): Promise<{ revokedAt: Date; name: string; hint: string }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: keyId, organizationId },
      select: { id: true, name: true, hint: true, revokedAt: true },
    });
    if (!key) throw new ApiError("not_found", "No API key with this id exists in this organization.");
    const { name, hint } = key;
    if (key.revokedAt && key.revokedAt <= now) return { revokedAt: key.revokedAt, name, hint };
    const revokedAt = now;
    await tx.apiKey.update({ where: { id: key.id, organizationId }, data: { revokedAt }, select: { id: true } });
    await recordActivity(tx, organizationId, actor, revokedLine({ id: key.id, name, hint }));
    return { revokedAt, name, hint };
  });
}

/** A key's revocation, as the trail records it: by the keys page, the CLI, or a person's deactivation. */
export function revokedLine(key: { id: string; name: string; hint: string }): ActivityEntry {
  return {
    subject: { type: API_KEY_SUBJECT, id: key.id, label: key.name },
    action: "revoked",
    detail: { hint: key.hint },
  };
}

export interface RolledApiKey {
  /** The replacement: same name, scopes and expiry, a new secret returned here once. */
  key: CreatedApiKey;
  /** The rolled key and the instant it stops working (now, for an overlap of 0). */
  previous: { id: string; stopsAt: Date };
}

const NOT_ROLLABLE: Record<Exclude<ApiKeyStatus, "active">, string> = {
  rolled: "This key has already been rolled; roll its replacement instead.",
  revoked: "This key is revoked; create a new key instead.",
  expired: "This key has expired; create a new key instead.",
};

/**
 * Rolls a working key of this organization, in one transaction: a new key with the same name, scopes and
 * expiry, the old key set to stop at now + overlap (or at its expiry, if that comes first), and a "rolled"
 * line on the new key. A key of another
 * organization is "not found"; a revoked, expired or already rolled one is a conflict, and nothing is written.
 */
export async function rollApiKey(
  organizationId: string,
  keyId: string,
  { overlapMs, actor, now = new Date() }: { overlapMs: number; actor: KeyActor; now?: Date },
): Promise<RolledApiKey> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({
      where: { id: keyId, organizationId },
      select: { id: true, name: true, hint: true, scopes: true, expiresAt: true, revokedAt: true },
    });
    if (!old) throw new ApiError("not_found", "No API key with this id exists in this organization.");
    const status = keyStatus(old, now);
    if (status !== "active") throw new ApiError("conflict", NOT_ROLLABLE[status]);
    // The old key never outlives its own expiry: an overlap past it would promise a stop time it never reaches.
    const overlapEnd = now.getTime() + overlapMs;
    const stopsAt = new Date(old.expiresAt ? Math.min(overlapEnd, old.expiresAt.getTime()) : overlapEnd);
    const key = await insertKey(
      tx,
      { organizationId, name: old.name, scopes: old.scopes as Scope[], expiresAt: old.expiresAt, actor },
      { action: "rolled", replaces: old.hint, oldKeyStopsAt: stopsAt },
    );
    // Guarded, so that of two rolls (or a roll and a revocation) racing on one key, only one lands.
    const { count } = await tx.apiKey.updateMany({
      where: { id: old.id, organizationId, revokedAt: null, rolledToId: null },
      data: { revokedAt: stopsAt, rolledToId: key.id },
    });
    if (count !== 1) throw new ApiError("conflict", NOT_ROLLABLE.rolled);
    return { key, previous: { id: old.id, stopsAt } };
  });
}

/**
 * The organization a key belongs to, for operator tools that start from a bare key id (the CLI's
 * `keys revoke`); the revoke itself stays scoped by this organization.
 */
export async function findApiKeyOrganization(keyId: string): Promise<OrganizationRef | null> {
  const db = await getDb();
  const key = await db.apiKey.findUnique({
    where: { id: keyId },
    select: { organization: { select: { id: true, slug: true, name: true } } },
  });
  return key?.organization ?? null;
}
