import { generateIngestToken } from "@/lib/auth/ingest-token";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordActivity } from "./activity";
import type { KeyActor } from "./api-keys";
import { keyStatus } from "./key-status";
import type { OrganizationRef } from "./organizations";

// Ingest tokens: the credential of the tools that send reports in (POST /ingest/v1/reports). Created, listed,
// rolled and revoked by founders and leads (lib/settings/ingest-token-actions.ts) and operators (`sundown ingest-tokens`),
// always scoped by organization: another organization's token is "not found", exactly like an unknown id. They keep
// API keys' rules (lib/data/api-keys.ts): the secret returned once, a hash and a hint stored, a roll's overlap.

type Transaction = Prisma.TransactionClient;

/** A token's state: it works while active, and while rolled until the overlap ends. Tokens do not expire. */
type IngestTokenStatus = "active" | "rolled" | "revoked";

export interface CreatedIngestToken {
  id: string;
  /** The full token. Returned here once and never again. */
  token: string;
  name: string;
  hint: string;
  createdAt: Date;
}

export interface IngestTokenListItem {
  id: string;
  name: string;
  hint: string;
  status: IngestTokenStatus;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** When the token stops (or stopped) working: its revocation, or the end of its roll's overlap. */
  revokedAt: Date | null;
  /** The token that replaced this one, when it was rolled. */
  rolledToId: string | null;
}

const NOT_FOUND = "No ingest token with this id exists in this organization.";

async function insertToken(
  tx: Transaction,
  organizationId: string,
  name: string,
  actor: KeyActor,
): Promise<CreatedIngestToken> {
  const { secret, hashed, hint } = generateIngestToken();
  const row = await tx.ingestToken.create({
    data: {
      organizationId,
      name,
      hashedToken: hashed,
      hint,
      createdById: actor.userId ?? null,
      createdByLabel: actor.label,
    },
    select: { id: true, name: true, hint: true, createdAt: true },
  });
  return { ...row, token: secret };
}

export async function createIngestToken(input: {
  organizationId: string;
  name: string;
  actor: KeyActor;
}): Promise<CreatedIngestToken> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const token = await insertToken(tx, input.organizationId, input.name, input.actor);
    await recordActivity(tx, input.organizationId, input.actor, { subject: tokenSubject(token), action: "created" });
    return token;
  });
}

/** The trail's kind of subject for ingest tokens (Settings → Ingest tokens shows its lines). */
export const INGEST_TOKEN_SUBJECT = "ingest_token";

const tokenSubject = (token: { id: string; name: string; hint: string }) => ({
  type: INGEST_TOKEN_SUBJECT,
  id: token.id,
  label: `${token.name} (${token.hint})`,
});

function statusOf(token: { revokedAt: Date | null }, now: Date): IngestTokenStatus {
  const status = keyStatus({ revokedAt: token.revokedAt, expiresAt: null }, now);
  return status === "expired" ? "revoked" : status;
}

export async function listIngestTokens(organizationId: string, now = new Date()): Promise<IngestTokenListItem[]> {
  const db = await getDb();
  const rows = await db.ingestToken.findMany({
    where: { organizationId },
    select: {
      id: true,
      name: true,
      hint: true,
      createdAt: true,
      createdByLabel: true,
      lastUsedAt: true,
      revokedAt: true,
      rolledToId: true,
      createdBy: { select: { member: { select: { name: true } } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(({ createdBy, createdByLabel, ...token }) => ({
    ...token,
    createdBy: createdBy?.member.name ?? createdByLabel,
    status: statusOf(token, now),
  }));
}

/** Revokes a token now. Revoking a revoked one changes nothing and reports its first revocation. */
export async function revokeIngestToken(
  organizationId: string,
  tokenId: string,
  actor: KeyActor,
  now = new Date(),
): Promise<{ revokedAt: Date; name: string; hint: string }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const token = await tx.ingestToken.findFirst({
      where: { id: tokenId, organizationId },
      select: { id: true, name: true, hint: true, revokedAt: true },
    });
    if (!token) throw new ApiError("not_found", NOT_FOUND);
    const { name, hint } = token;
    if (token.revokedAt && token.revokedAt <= now) return { revokedAt: token.revokedAt, name, hint };
    await tx.ingestToken.update({
      where: { id: token.id, organizationId },
      data: { revokedAt: now },
      select: { id: true },
    });
    await recordActivity(tx, organizationId, actor, { subject: tokenSubject(token), action: "revoked" });
    return { revokedAt: now, name, hint };
  });
}

export interface RolledIngestToken {
  /** The replacement: the same name, a new secret returned here once. */
  token: CreatedIngestToken;
  /** The rolled token and the instant it stops working (now, for an overlap of 0). */
  previous: { id: string; stopsAt: Date };
}

/**
 * Rolls a working token in one transaction: a new token with the same name, the old one set to stop at
 * now + overlap. A rolled or revoked token is a conflict, and nothing is written.
 */
export async function rollIngestToken(
  organizationId: string,
  tokenId: string,
  { overlapMs, actor, now = new Date() }: { overlapMs: number; actor: KeyActor; now?: Date },
): Promise<RolledIngestToken> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const old = await tx.ingestToken.findFirst({
      where: { id: tokenId, organizationId },
      select: { id: true, name: true, hint: true, revokedAt: true },
    });
    if (!old) throw new ApiError("not_found", NOT_FOUND);
    const status = statusOf(old, now);
    if (status === "rolled")
      throw new ApiError("conflict", "This token has already been rolled; roll its replacement.");
    if (status === "revoked") throw new ApiError("conflict", "This token is revoked; create a new token instead.");
    const token = await insertToken(tx, organizationId, old.name, actor);
    const stopsAt = new Date(now.getTime() + overlapMs);
    // Guarded, so that of two rolls (or a roll and a revocation) racing on one token, only one lands.
    const { count } = await tx.ingestToken.updateMany({
      where: { id: old.id, organizationId, revokedAt: null, rolledToId: null },
      data: { revokedAt: stopsAt, rolledToId: token.id },
    });
    if (count !== 1) throw new ApiError("conflict", "This token has already been rolled or revoked.");
    await recordActivity(tx, organizationId, actor, {
      subject: tokenSubject(old),
      action: "rolled",
      detail: { new_token: token.hint, old_token_stops_at: stopsAt.toISOString() },
    });
    return { token, previous: { id: old.id, stopsAt } };
  });
}

/** The organization a token belongs to, for the CLI, which names a token by its bare id. */
export async function findIngestTokenOrganization(tokenId: string): Promise<OrganizationRef | null> {
  const db = await getDb();
  const token = await db.ingestToken.findUnique({
    where: { id: tokenId },
    select: { organization: { select: { id: true, slug: true, name: true } } },
  });
  return token?.organization ?? null;
}

/** What verifying a presented token needs: its state and its organization. */
export interface IngestTokenRow {
  id: string;
  /** What the trail names the token's imports by. */
  name: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  organization: OrganizationRef;
}

/** The token with this hash (one probe of the unique index), whatever its state. */
export async function findIngestTokenByHash(hashedToken: string): Promise<IngestTokenRow | null> {
  const db = await getDb();
  return db.ingestToken.findUnique({
    where: { hashedToken },
    select: {
      id: true,
      name: true,
      revokedAt: true,
      lastUsedAt: true,
      organization: { select: { id: true, slug: true, name: true } },
    },
  });
}

/** Records use at most once a minute per token; the condition makes concurrent writers harmless. */
export async function touchIngestToken(tokenId: string, organizationId: string, now = new Date()): Promise<void> {
  const db = await getDb();
  await db.$executeRaw`UPDATE ingest_tokens SET last_used_at = ${now}
    WHERE id = ${tokenId}::uuid AND organization_id = ${organizationId}::uuid
      AND (last_used_at IS NULL OR last_used_at < ${now}::timestamptz - interval '1 minute')`;
}

/** Whether a token in this state is accepted at `now`: active, or rolled until its overlap ends. */
export function acceptsIngest(token: { revokedAt: Date | null }, now = new Date()): boolean {
  return statusOf(token, now) !== "revoked";
}
