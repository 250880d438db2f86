import { generateApiKey } from "@/lib/auth/api-key";
import type { Scope } from "@/lib/auth/scopes";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { OrganizationRef } from "./organizations";

/** Who performed a key operation: a signed-in user, or an operator at the shell. */
export type KeyActor = { userId: string; label: string } | { userId?: undefined; label: string };

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

export type ApiKeyStatus = "active" | "revoked" | "expired";

export interface ApiKeyListItem {
  id: string;
  name: string;
  scopes: string[];
  hint: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdBy: string | null;
  status: ApiKeyStatus;
}

export function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()): ApiKeyStatus {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

export async function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const db = await getDb();
  const { secret, hashedKey, hint } = generateApiKey();
  const scopes = [...new Set(input.scopes)].sort() as Scope[];
  const created = await db.$transaction(async (tx) => {
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
        action: "created",
        actorUserId: input.actor.userId ?? null,
        actorLabel: input.actor.label,
      },
      select: { id: true },
    });
    return key;
  });
  return { ...created, key: secret, scopes };
}

export async function listApiKeys(organizationId: string): Promise<ApiKeyListItem[]> {
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
      createdBy: { select: { member: { select: { name: true } } } },
      events: { where: { action: "created" }, select: { actorLabel: true }, take: 1 },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const now = new Date();
  return rows.map(({ createdBy, events, ...key }) => ({
    ...key,
    createdBy: createdBy?.member.name ?? events[0]?.actorLabel ?? null,
    status: keyStatus(key, now),
  }));
}

/**
 * Revokes a key of this organization. A key of another organization is "not found", exactly like
 * an unknown id. Revoking an already revoked key changes nothing and reports its first revocation.
 */
export async function revokeApiKey(
  organizationId: string,
  keyId: string,
  actor: KeyActor,
): Promise<{ revokedAt: Date }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: keyId, organizationId },
      select: { id: true, revokedAt: true },
    });
    if (!key) throw new ApiError("not_found", "No API key with this id exists in this organization.");
    if (key.revokedAt) return { revokedAt: key.revokedAt };
    const revokedAt = new Date();
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
    return { revokedAt };
  });
}

export interface ApiKeyEventItem {
  id: string;
  action: "created" | "revoked";
  keyName: string;
  keyHint: string;
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
      apiKey: { select: { name: true, hint: true } },
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
