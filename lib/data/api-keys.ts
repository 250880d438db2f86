import { generateApiKey } from "@/lib/auth/api-key";
import type { Scope } from "@/lib/auth/scopes";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "./activity";
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

/** The audit event a new key is inserted with: created, or a roll's new key with when the old one is to stop. */
type InsertEvent = { action: "created" } | { action: "rolled"; oldKeyStopsAt: Date };

/** Inserts a key and its audit event; the secret is returned once. */
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
  await tx.apiKeyEvent.create({
    data: {
      organizationId: input.organizationId,
      apiKeyId: key.id,
      action: event.action,
      oldKeyStopsAt: event.action === "rolled" ? event.oldKeyStopsAt : null,
      actorUserId: input.actor.userId ?? null,
      actorLabel: input.actor.label,
    },
    select: { id: true },
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
      events: { where: { action: { in: ["created", "rolled"] } }, select: { actorLabel: true }, take: 1 },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(({ createdBy, events, ...key }) => ({
    ...key,
    createdBy: createdBy?.member.name ?? events[0]?.actorLabel ?? null,
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
    await tx.apiKeyEvent.create({
      data: {
        organizationId,
        apiKeyId: key.id,
        action: "revoked",
        actorUserId: actor.userId ?? null,
        actorLabel: actor.label,
      },
      select: { id: true },
    });
    return { revokedAt, name, hint };
  });
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
 * event on the new key. A key of another
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
      select: { id: true, name: true, scopes: true, expiresAt: true, revokedAt: true },
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
      { action: "rolled", oldKeyStopsAt: stopsAt },
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

export interface ApiKeyEventItem {
  id: string;
  action: "created" | "revoked" | "rolled";
  keyName: string;
  keyHint: string;
  /**
   * For a roll (recorded on the new key): the key it replaced, and when the roll set that one to stop (what the
   * roll did, not the old key's state now: a later revocation is an event of its own).
   */
  replaced: { hint: string; stopsAt: Date | null } | null;
  actor: string;
  createdAt: Date;
}

export async function listApiKeyEvents(organizationId: string, take = 50): Promise<ApiKeyEventItem[]> {
  const db = await getDb();
  const rows = await db.apiKeyEvent.findMany({
    where: { organizationId },
    select: {
      id: true,
      action: true,
      actorLabel: true,
      createdAt: true,
      oldKeyStopsAt: true,
      apiKey: { select: { name: true, hint: true, rolledFrom: { select: { hint: true } } } },
      actor: { select: { member: { select: { name: true } } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
  return rows.map((e) => ({
    id: e.id,
    action: e.action,
    keyName: e.apiKey.name,
    keyHint: e.apiKey.hint,
    replaced:
      e.action === "rolled" && e.apiKey.rolledFrom
        ? { hint: e.apiKey.rolledFrom.hint, stopsAt: e.oldKeyStopsAt }
        : null,
    actor: e.actor?.member.name ?? e.actorLabel,
    createdAt: e.createdAt,
  }));
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
