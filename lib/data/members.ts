import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { MemberInput } from "@/lib/schemas/member-input";
import { recordActivities, recordActivity, type Actor } from "./activity";
import { revokedLine } from "./api-keys";
import { revokePendingInvitations } from "./invitations";
import {
  emailTaken,
  hasActiveFounder,
  lockRoster,
  readRoster,
  requireActiveFounder,
  roleRefusal,
  writeMember,
  type MemberChange,
  type RosterAuthority,
  type RosterMember,
} from "./member-writes";

// The roster as Settings → Team and `sundown members` change it, one person at a time (the import is
// ./member-import.ts): each change one transaction under the roster's lock, with its activity line and its
// member.updated event. People that reports name are deactivated, never deleted: there is no delete.

export type { RosterAuthority, RosterMember } from "./member-writes";

type Transaction = Prisma.TransactionClient;

const TRANSACTION = { maxWait: 10_000, timeout: 30_000 } as const;

/** Founders and leads act with their role; anyone else never reaches the roster's changes. */
export function authorityOf(role: string): RosterAuthority {
  return role === "founder" ? "founder" : "lead";
}

/** Every person of the organization, founders first, each by name, with the contact details the page edits. */
export async function listRoster(organizationId: string): Promise<RosterMember[]> {
  const db = await getDb();
  return db.$transaction((tx) => readRoster(tx, organizationId));
}

async function findMemberOrThrow(tx: Transaction, organizationId: string, memberId: string): Promise<RosterMember> {
  const [member] = await readRoster(tx, organizationId, [memberId]);
  if (!member) throw new ApiError("not_found", "No such person in this organization.");
  return member;
}

async function refuseTakenEmail(tx: Transaction, organizationId: string, input: MemberInput, exceptId: string | null) {
  if (input.email && (await emailTaken(tx, organizationId, input.email, exceptId))) {
    throw new ApiError("conflict", `Someone of the roster already has the address ${input.email}.`);
  }
}

/** Adds a person. A lead cannot add a founder. */
export async function addMember(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  input: MemberInput,
): Promise<{ id: string }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockRoster(tx, organizationId);
    const refusal = roleRefusal(authority, null, input);
    if (refusal) throw new ApiError("forbidden", refusal);
    await refuseTakenEmail(tx, organizationId, input, null);
    const { id } = await writeMember(tx, organizationId, actor, null, input);
    return { id };
  }, TRANSACTION);
}

/**
 * Changes a person to `input` (their activity too: `active` false deactivates, keeping their keys; use
 * deactivateMember to decide about those). A lead neither makes nor changes a founder; the last active founder
 * stays one.
 */
export async function updateMember(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  memberId: string,
  input: MemberInput,
): Promise<{ id: string; change: MemberChange }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockRoster(tx, organizationId);
    const before = await findMemberOrThrow(tx, organizationId, memberId);
    const refusal = roleRefusal(authority, before, input);
    if (refusal) throw new ApiError("forbidden", refusal);
    await refuseTakenEmail(tx, organizationId, input, memberId);
    const hadFounder = await hasActiveFounder(tx, organizationId);
    const written = await writeMember(tx, organizationId, actor, before, input);
    await requireActiveFounder(tx, organizationId, hadFounder);
    return written;
  }, TRANSACTION);
}

/** An API key a person created that still works: what deactivating them offers to revoke. */
export interface KeyOfMember {
  id: string;
  name: string;
  hint: string;
  createdById: string;
}

/** The organization's keys that still work, by the user who created them: the deactivation dialog's choices. */
export async function listWorkingKeysByCreator(
  organizationId: string,
  now = new Date(),
): Promise<Map<string, KeyOfMember[]>> {
  const db = await getDb();
  const keys = await db.apiKey.findMany({
    where: {
      organizationId,
      createdById: { not: null },
      OR: [{ revokedAt: null }, { revokedAt: { gt: now } }],
      AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }],
    },
    select: { id: true, name: true, hint: true, createdById: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const byCreator = new Map<string, KeyOfMember[]>();
  for (const key of keys) {
    const list = byCreator.get(key.createdById!) ?? [];
    list.push({ ...key, createdById: key.createdById! });
    byCreator.set(key.createdById!, list);
  }
  return byCreator;
}

/**
 * Deactivates a person: from their next request their sessions are refused (the session is re-read from the
 * database on every page, action and /api/auth/session), and the keys named in `revokeKeyIds` stop now — only keys
 * they created, in this organization; the others they created keep working. The last active founder cannot be
 * deactivated, and a lead cannot deactivate a founder.
 */
export async function deactivateMember(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  memberId: string,
  { revokeKeyIds = [], now = new Date() }: { revokeKeyIds?: string[]; now?: Date } = {},
): Promise<{ id: string; change: MemberChange; revokedKeyIds: string[] }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockRoster(tx, organizationId);
    const before = await findMemberOrThrow(tx, organizationId, memberId);
    const input: MemberInput = { ...before, active: false };
    const refusal = roleRefusal(authority, before, input);
    if (refusal) throw new ApiError("forbidden", refusal);
    const hadFounder = await hasActiveFounder(tx, organizationId);
    const written = await writeMember(tx, organizationId, actor, before, input);
    await requireActiveFounder(tx, organizationId, hadFounder);
    const revokedKeyIds = await revokeKeysOf(tx, organizationId, actor, before, revokeKeyIds, now);
    // Their pending one-time links die with the deactivation: a link must not bring back someone just removed.
    if (before.email) await revokePendingInvitations(tx, organizationId, before.email);
    return { ...written, revokedKeyIds };
  }, TRANSACTION);
}

/** Revokes those of `keyIds` that `member` created and that still work; an id of any other key is refused. */
async function revokeKeysOf(
  tx: Transaction,
  organizationId: string,
  actor: Actor,
  member: RosterMember,
  keyIds: string[],
  now: Date,
): Promise<string[]> {
  if (keyIds.length === 0) return [];
  const keys = member.userId
    ? await tx.apiKey.findMany({
        where: { organizationId, id: { in: keyIds }, createdById: member.userId },
        select: { id: true, name: true, hint: true, revokedAt: true },
      })
    : [];
  if (keys.length !== new Set(keyIds).size) {
    throw new ApiError("not_found", `Only keys ${member.name} created can be revoked with the deactivation.`);
  }
  const revoking = keys.filter((key) => !key.revokedAt || key.revokedAt > now);
  const working = revoking.map((key) => key.id);
  for (const apiKeyId of working) {
    await tx.apiKey.update({ where: { id: apiKeyId, organizationId }, data: { revokedAt: now }, select: { id: true } });
  }
  await recordActivities(tx, organizationId, actor, revoking.map(revokedLine));
  if (working.length > 0) {
    await recordActivity(tx, organizationId, actor, {
      subject: { type: "member", id: member.id, label: member.name },
      action: "keys revoked",
      detail: { keys: working.length },
    });
  }
  return working;
}

/** Makes a deactivated person active again (their revoked keys stay revoked). A lead cannot reactivate a founder. */
export async function reactivateMember(
  organizationId: string,
  actor: Actor,
  authority: RosterAuthority,
  memberId: string,
): Promise<{ id: string; change: MemberChange }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockRoster(tx, organizationId);
    const before = await findMemberOrThrow(tx, organizationId, memberId);
    const input: MemberInput = { ...before, active: true };
    const refusal = roleRefusal(authority, before, input);
    if (refusal) throw new ApiError("forbidden", refusal);
    await refuseTakenEmail(tx, organizationId, input, memberId);
    return writeMember(tx, organizationId, actor, before, input);
  }, TRANSACTION);
}
