import { secretFormat, hashSecret } from "@/lib/auth/token-format";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { mayGrant } from "@/lib/schemas/role-rank";
import type { MemberRole } from "@/lib/schemas/team";
import { recordActivity, type Actor } from "./activity";

// One-time links (issue 36): an invitation to sign in for the first time, or a password reset for someone who
// already signs in. A link is bound to one e-mail address and role in one organization, valid for 7 days, used once.
// Only the SHA-256 of its token is stored; the token is in the link, shown (and e-mailed) once. Opening a link reads
// it (inspectInvitation) and changes nothing, since mail scanners open links; setting a password uses it up
// (completeInvitation), in one UPDATE … WHERE used_at IS NULL, so two tabs completing it at once cannot both win.

type Transaction = Prisma.TransactionClient;

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The token in a link's path: checked for shape and checksum before any database work. */
const INVITATION_TOKEN_FORMAT = secretFormat("sdn_in_");

/** Where a link leads: the sign-in origin's /invite/<token> (the token in the path, never a query). */
export function invitationLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/invite/${token}`;
}

/** Who makes a link: a signed-in founder or lead (their role bounds the link's), or an operator (no bound). */
export type Inviter = Actor & { role?: MemberRole };

type InvitationStatus = "pending" | "used" | "expired" | "revoked";

export interface InvitationItem {
  id: string;
  email: string;
  role: MemberRole;
  /** Whether the person already signs in: the link then resets their password. */
  resetsPassword: boolean;
  status: InvitationStatus;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

export interface CreatedInvitation extends InvitationItem {
  /** The link's token: shown once, never stored. */
  token: string;
}

function statusOf(row: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now = new Date()) {
  if (row.usedAt) return "used" as const;
  if (row.revokedAt) return "revoked" as const;
  if (row.expiresAt <= now) return "expired" as const;
  return "pending" as const;
}

const itemSelect = {
  id: true,
  email: true,
  role: true,
  createdByLabel: true,
  createdAt: true,
  expiresAt: true,
  usedAt: true,
  revokedAt: true,
  member: { select: { user: { select: { id: true } } } },
} as const;

type ItemRow = {
  id: string;
  email: string;
  role: MemberRole;
  createdByLabel: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  member: { user: { id: string } | null } | null;
};

function toItem(row: ItemRow): InvitationItem {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    resetsPassword: Boolean(row.member?.user),
    status: statusOf(row),
    createdBy: row.createdByLabel,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    usedAt: row.usedAt,
    revokedAt: row.revokedAt,
  };
}

/**
 * Revokes the organization's pending links for this address (lower-cased), in `tx`: a new link replaces them, and
 * deactivating someone ends theirs (the roster's deactivation calls this). Returns how many it revoked.
 */
export async function revokePendingInvitations(
  tx: Transaction,
  organizationId: string,
  email: string,
): Promise<number> {
  const { count } = await tx.invitation.updateMany({
    where: {
      organizationId,
      email: email.trim().toLowerCase(),
      usedAt: null,
      revokedAt: null,
      expiresAt: { gt: new Date() },
    },
    data: { revokedAt: new Date() },
  });
  return count;
}

export interface NewInvitation {
  organizationId: string;
  /** Lower-cased by its schema (lib/schemas/email-address.ts). */
  email: string;
  role: MemberRole;
  actor: Inviter;
}

/**
 * Makes a link, in `tx` (orgs create makes the founder's in its own transaction). Refuses, as a conflict with a
 * message to show: a role above the inviter's, someone whose current role is above it (a lead cannot reset a
 * founder's password), a deactivated person, an address that signs in to another organization.
 */
export async function insertInvitation(tx: Transaction, input: NewInvitation): Promise<CreatedInvitation> {
  const { organizationId, email, role, actor } = input;
  if (actor.role && !mayGrant(actor.role, role)) {
    throw new ApiError("conflict", `A ${actor.role} cannot invite a ${role}: nobody invites above their own role.`);
  }
  const member = await tx.member.findFirst({
    where: { organizationId, email: { equals: email, mode: "insensitive" } },
    select: { id: true, role: true, active: true, name: true },
    orderBy: { createdAt: "asc" },
  });
  if (member && !member.active) {
    throw new ApiError(
      "conflict",
      `${member.name} is deactivated. Reactivate them in Settings → Team first, then send the link.`,
    );
  }
  if (member && actor.role && !mayGrant(actor.role, member.role)) {
    throw new ApiError("conflict", `${member.name} is a ${member.role}: only a ${member.role} can send them a link.`);
  }
  const user = await tx.user.findUnique({
    where: { email },
    select: { member: { select: { id: true, organizationId: true } } },
  });
  if (user && user.member.organizationId !== organizationId) {
    throw new ApiError("conflict", `${email} already signs in to another organization; one address signs in to one.`);
  }
  const revoked = await revokePendingInvitations(tx, organizationId, email);
  const { secret, hashed } = INVITATION_TOKEN_FORMAT.generate();
  const row = await tx.invitation.create({
    data: {
      organizationId,
      email,
      role,
      memberId: member?.id ?? user?.member.id ?? null,
      hashedToken: hashed,
      createdById: actor.userId ?? null,
      createdByLabel: actor.label,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    },
    select: itemSelect,
  });
  const item = toItem(row);
  await recordActivity(tx, organizationId, actor, {
    subject: { type: "invitation", id: row.id, label: email },
    action: item.resetsPassword ? "password reset link created" : "created",
    // How many pending links of the address this one replaced, said only when it replaced any.
    detail: revoked > 0 ? { role, replaced: revoked } : { role },
  });
  return { ...item, token: secret };
}

/** Makes a link in a transaction of its own (settings page, CLI). */
export async function createInvitation(input: NewInvitation): Promise<CreatedInvitation> {
  const db = await getDb();
  return db.$transaction((tx) => insertInvitation(tx, input));
}

/** The organization's links, pending first then newest first (at most 200). */
export async function listInvitations(organizationId: string, only?: "pending"): Promise<InvitationItem[]> {
  const db = await getDb();
  const now = new Date();
  const rows = await db.invitation.findMany({
    where: {
      organizationId,
      ...(only === "pending" ? { usedAt: null, revokedAt: null, expiresAt: { gt: now } } : {}),
    },
    select: itemSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  const items = rows.map(toItem);
  return [...items.filter((i) => i.status === "pending"), ...items.filter((i) => i.status !== "pending")];
}

/** The organization a link belongs to, for the CLI, which names links by id alone. */
export async function findInvitationOrganization(id: string) {
  const db = await getDb();
  const row = await db.invitation.findUnique({
    where: { id },
    select: { organization: { select: { id: true, slug: true, name: true } } },
  });
  return row?.organization ?? null;
}

/**
 * Revokes one of the organization's links; another organization's id is not found. A link that is already used,
 * revoked or expired is left as it is (`changed: false`). A signed-in inviter cannot revoke a link above their role.
 */
export async function revokeInvitation(
  organizationId: string,
  id: string,
  actor: Inviter,
): Promise<{ item: InvitationItem; changed: boolean }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const row = await tx.invitation.findFirst({ where: { id, organizationId }, select: itemSelect });
    if (!row) throw new ApiError("not_found", "No such invitation.");
    if (actor.role && !mayGrant(actor.role, row.role)) {
      throw new ApiError("conflict", `A ${actor.role} cannot revoke a ${row.role}'s link.`);
    }
    if (statusOf(row) !== "pending") return { item: toItem(row), changed: false };
    const updated = await tx.invitation.update({
      where: { id },
      data: { revokedAt: new Date() },
      select: itemSelect,
    });
    await recordActivity(tx, organizationId, actor, {
      subject: { type: "invitation", id, label: row.email },
      action: "revoked",
      detail: { role: row.role },
    });
    return { item: toItem(updated), changed: true };
  });
}

export type LinkState = "open" | "used" | "expired" | "revoked" | "unknown";

export interface LinkView {
  state: LinkState;
  /** Only for an open link: what its page shows. */
  open?: {
    email: string;
    role: MemberRole;
    organizationName: string;
    /** Someone who already signs in: the link resets their password. */
    resetsPassword: boolean;
    /** The name on the roster, when they are on it; else the page asks for one. */
    name: string | null;
    expiresAt: Date;
  };
}

/** What a link's page shows: reads only, so a mail scanner opening the link uses nothing up. */
export async function inspectInvitation(token: string): Promise<LinkView> {
  if (!INVITATION_TOKEN_FORMAT.isWellFormed(token)) return { state: "unknown" };
  const db = await getDb();
  const row = await db.invitation.findUnique({
    where: { hashedToken: hashSecret(token) },
    select: {
      email: true,
      role: true,
      expiresAt: true,
      usedAt: true,
      revokedAt: true,
      organization: { select: { name: true } },
      member: { select: { name: true, active: true, user: { select: { id: true } } } },
    },
  });
  if (!row) return { state: "unknown" };
  const status = statusOf(row);
  if (status !== "pending") return { state: status };
  if (row.member && !row.member.active) return { state: "revoked" };
  return {
    state: "open",
    open: {
      email: row.email,
      role: row.role,
      organizationName: row.organization.name,
      resetsPassword: Boolean(row.member?.user),
      name: row.member?.name ?? null,
      expiresAt: row.expiresAt,
    },
  };
}

/** Why a link could not be completed; the code is what the link page (and next-auth's `?error=`) shows. */
export class LinkRefused extends Error {
  constructor(readonly code: "LinkUsed" | "LinkExpired" | "LinkRevoked" | "LinkUnknown" | "LinkOtherEmail") {
    super(code);
  }
}

/** The code each state of a link that cannot be completed is refused with. */
export const LINK_REFUSAL: Record<Exclude<LinkState, "open">, LinkRefused["code"]> = {
  used: "LinkUsed",
  expired: "LinkExpired",
  revoked: "LinkRevoked",
  unknown: "LinkUnknown",
};

export interface Completion {
  token: string;
  /** The scrypt hash of the password they chose (checked for strength by the caller); null for Google/GitHub. */
  passwordHash: string | null;
  /** Their name, when the roster has no entry for them yet (the page asks for it then). */
  name?: string;
  /** Google/GitHub: the verified address the provider vouches for, which must be the link's. */
  verifiedEmail?: string;
}

export interface CompletedUser {
  userId: string;
  memberId: string;
  organizationId: string;
  email: string;
  name: string;
  role: MemberRole;
}

/**
 * Uses up a link and gives its person a sign-in: a roster entry (made now if they have none, with `name`), the
 * link's role, and the password (or none, for Google/GitHub). One transaction; the link is claimed first, by one
 * UPDATE … WHERE used_at IS NULL … RETURNING, so of two completions at once exactly one wins and the other is
 * refused as used. Throws LinkRefused when the link cannot be completed, and changes nothing then.
 */
export async function completeInvitation(completion: Completion): Promise<CompletedUser> {
  const { token, passwordHash, verifiedEmail } = completion;
  if (!INVITATION_TOKEN_FORMAT.isWellFormed(token)) throw new LinkRefused("LinkUnknown");
  const hashed = hashSecret(token);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const claimed = await tx.$queryRaw<
      { id: string; organization_id: string; email: string; role: MemberRole; member_id: string | null }[]
    >`
      UPDATE invitations SET used_at = now()
      WHERE hashed_token = ${hashed} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
      RETURNING id, organization_id, email, role::text AS role, member_id`;
    const link = claimed[0];
    if (!link) {
      const view = await inspectInvitationIn(tx, hashed);
      throw new LinkRefused(LINK_REFUSAL[view]);
    }
    if (verifiedEmail !== undefined && verifiedEmail.trim().toLowerCase() !== link.email) {
      throw new LinkRefused("LinkOtherEmail");
    }
    const existing = link.member_id
      ? await tx.member.findUnique({ where: { id: link.member_id }, select: { id: true, name: true, active: true } })
      : await tx.member.findFirst({
          where: { organizationId: link.organization_id, email: { equals: link.email, mode: "insensitive" } },
          select: { id: true, name: true, active: true },
        });
    if (existing && !existing.active) throw new LinkRefused("LinkRevoked");
    const name = completion.name?.trim();
    if (!existing && !name) throw new ApiError("invalid_parameter", "Enter your name.");
    const member = existing
      ? await tx.member.update({
          where: { id: existing.id },
          data: { role: link.role },
          select: { id: true, name: true },
        })
      : await tx.member.create({
          data: { organizationId: link.organization_id, name: name!, role: link.role, email: link.email },
          select: { id: true, name: true },
        });
    const user = await tx.user.findUnique({ where: { memberId: member.id }, select: { id: true, email: true } });
    const signIn = user
      ? await tx.user.update({
          where: { id: user.id },
          // Google/GitHub completing a reset leaves the password as it is.
          data: passwordHash ? { passwordHash } : {},
          select: { id: true, email: true },
        })
      : await tx.user.create({
          data: { email: link.email, memberId: member.id, passwordHash },
          select: { id: true, email: true },
        });
    await recordActivity(
      tx,
      link.organization_id,
      { userId: signIn.id, label: member.name },
      {
        subject: { type: "invitation", id: link.id, label: link.email },
        action: user ? "password reset" : "accepted",
        detail: { role: link.role },
      },
    );
    return {
      userId: signIn.id,
      memberId: member.id,
      organizationId: link.organization_id,
      email: signIn.email,
      name: member.name,
      role: link.role,
    };
  });
}

async function inspectInvitationIn(tx: Transaction, hashedToken: string): Promise<Exclude<LinkState, "open">> {
  const row = await tx.invitation.findUnique({
    where: { hashedToken },
    select: { usedAt: true, revokedAt: true, expiresAt: true },
  });
  if (!row) return "unknown";
  const status = statusOf(row);
  return status === "pending" ? "used" : status;
}
