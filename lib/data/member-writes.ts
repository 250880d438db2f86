import { ApiError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { MemberInput } from "@/lib/schemas/member-input";
import type { MemberRole } from "@/lib/schemas/team";
import { withoutInvisibles } from "@/lib/text/invisible-characters";
import { recordActivity, type Actor } from "./activity";
import { recordMembersUpdated } from "./webhook-outbox";

// The one way a person of the roster is written, for Settings → Team and the roster import alike: the role rules,
// the last founder, the contact details split between the roster row and member_contacts, the activity line and
// the member.updated event, all in the caller's transaction, which holds the roster's lock (lockRoster).

type Transaction = Prisma.TransactionClient;

/** Who changes the roster: a founder, a lead (who cannot make or change founders), or an operator at the shell. */
export type RosterAuthority = "founder" | "lead" | "operator";

/** A person as Settings → Team shows and edits them: their contact details too, which no API serves. */
export interface RosterMember {
  id: string;
  name: string;
  role: MemberRole;
  department: string | null;
  external: boolean;
  active: boolean;
  email: string | null;
  otherEmails: string[];
  chats: string[];
  phones: string[];
  /** The user id of their sign-in, if they have one. */
  userId: string | null;
}

export type MemberChange = "added" | "updated" | "unchanged" | "deactivated" | "reactivated";

const LEAD_CANNOT_GRANT_FOUNDER = "Only founders can grant the founder role.";
const LEAD_CANNOT_CHANGE_FOUNDER = "Only founders can change a founder.";
export const LAST_FOUNDER =
  "The organization would be left without an active founder, so nothing was changed. Make someone else a founder first.";

/**
 * Takes the roster's lock for the rest of the transaction: roster changes of one organization take turns, so two
 * concurrent demotions of its last two founders cannot both see the other still there. A row lock on the
 * organization, which works alike on PostgreSQL, through a transaction pooler and on the embedded database.
 */
export async function lockRoster(tx: Transaction, organizationId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw new ApiError("not_found", "No such organization.");
}

const memberSelect = {
  id: true,
  name: true,
  role: true,
  department: true,
  isExternal: true,
  active: true,
  email: true,
  chatHandle: true,
  user: { select: { id: true } },
  contacts: {
    select: { kind: true, value: true },
    orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }],
  },
} satisfies Prisma.MemberSelect;

type MemberRow = Prisma.MemberGetPayload<{ select: typeof memberSelect }>;

function rosterMemberOf(row: MemberRow): RosterMember {
  const of = (kind: string) => row.contacts.filter((c) => c.kind === kind).map((c) => c.value);
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    department: row.department,
    external: row.isExternal,
    active: row.active,
    email: row.email,
    otherEmails: of("email"),
    chats: [...(row.chatHandle ? [row.chatHandle] : []), ...of("chat")],
    phones: of("phone"),
    userId: row.user?.id ?? null,
  };
}

/** The organization's people (or only `ids`), founders first, each by name. */
export async function readRoster(tx: Transaction, organizationId: string, ids?: string[]): Promise<RosterMember[]> {
  const rows = await tx.member.findMany({
    where: { organizationId, ...(ids ? { id: { in: ids } } : {}) },
    select: memberSelect,
    orderBy: [{ role: "asc" }, { name: "asc" }, { id: "asc" }],
  });
  return rows.map(rosterMemberOf);
}

/** The fields of a person that differ from `input`, by their names in the import format. */
export function changedFields(before: RosterMember, input: MemberInput): string[] {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  const changed: string[] = [];
  if (before.name !== input.name) changed.push("name");
  if (before.email !== input.email) changed.push("email");
  if (before.role !== input.role) changed.push("role");
  if (before.department !== input.department) changed.push("department");
  if (before.external !== input.external) changed.push("external");
  if (before.active !== input.active) changed.push("active");
  if (!same(before.otherEmails, input.otherEmails)) changed.push("other e-mail addresses");
  if (!same(before.chats, input.chats)) changed.push("chat");
  if (!same(before.phones, input.phones)) changed.push("phone");
  return changed;
}

/** The role rules: a lead neither makes a founder nor changes one. Returns the refusal, or null. */
export function roleRefusal(
  authority: RosterAuthority,
  before: RosterMember | null,
  input: MemberInput,
): string | null {
  if (authority !== "lead") return null;
  if (before?.role === "founder") return LEAD_CANNOT_CHANGE_FOUNDER;
  if (input.role === "founder") return LEAD_CANNOT_GRANT_FOUNDER;
  return null;
}

/** Whether another person of the organization has this address already (addresses are compared ignoring case). */
export async function emailTaken(tx: Transaction, organizationId: string, email: string, exceptId: string | null) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM members WHERE organization_id = ${organizationId}::uuid AND lower(email) = lower(${email})
      AND (${exceptId}::uuid IS NULL OR id <> ${exceptId}::uuid) LIMIT 1`;
  return rows.length > 0;
}

/**
 * Writes one person as `input` says (`before` null: a new person), with its activity line and member.updated
 * event; nothing when nothing differs. The caller holds the roster's lock and has applied the role rules, and
 * calls requireActiveFounder once its changes are written.
 */
export async function writeMember(
  tx: Transaction,
  organizationId: string,
  actor: Actor,
  before: RosterMember | null,
  input: MemberInput,
): Promise<{ id: string; change: MemberChange }> {
  const changed = before ? changedFields(before, input) : [];
  if (before && changed.length === 0) return { id: before.id, change: "unchanged" };
  const data = {
    name: input.name,
    email: input.email,
    role: input.role,
    department: input.department,
    isExternal: input.external,
    active: input.active,
    // The first handle on the roster row, where the demo seed and older rosters keep it; the rest beside it.
    chatHandle: input.chats[0] ?? null,
  };
  const id = before
    ? (await tx.member.update({ where: { id: before.id, organizationId }, data, select: { id: true } })).id
    : (await tx.member.create({ data: { organizationId, ...data }, select: { id: true } })).id;
  const contactsChanged =
    !before || ["other e-mail addresses", "chat", "phone"].some((field) => changed.includes(field));
  if (contactsChanged) {
    // Replaced only when they changed: each write moves the organization's contacts version (the scrubber's cache).
    if (before) await tx.memberContact.deleteMany({ where: { organizationId, memberId: id } });
    const contacts = [
      ...input.otherEmails.map((value) => ({ kind: "email" as const, value })),
      ...input.chats.slice(1).map((value) => ({ kind: "chat" as const, value })),
      ...input.phones.map((value) => ({ kind: "phone" as const, value })),
    ];
    if (contacts.length > 0) {
      await tx.memberContact.createMany({ data: contacts.map((c) => ({ ...c, organizationId, memberId: id })) });
    }
  }
  const change: MemberChange = !before
    ? "added"
    : before.active && !input.active
      ? "deactivated"
      : !before.active && input.active
        ? "reactivated"
        : "updated";
  await recordActivity(tx, organizationId, actor, {
    subject: { type: "member", id, label: input.name },
    action: change,
    // Which fields, never their values: contact details stay off the trail too.
    detail: {
      ...(before && changed.length > 0 ? { changed: changed.join(", ") } : {}),
      ...(before && before.role !== input.role ? { role_before: before.role, role: input.role } : {}),
      ...(!before ? { role: input.role } : {}),
    },
  });
  await recordMembersUpdated(tx, organizationId, [
    // As GET /api/v1/team shows them (lib/data/team.ts): never a contact detail.
    {
      id,
      name: withoutInvisibles(input.name),
      role: input.role,
      department: input.department === null ? null : withoutInvisibles(input.department),
      is_external: input.external,
      active: input.active,
    },
  ]);
  return { id, change };
}

/** Refuses (and so rolls back) a change that leaves the organization with no active founder while it had one. */
export async function requireActiveFounder(tx: Transaction, organizationId: string, hadFounder: boolean) {
  if (!hadFounder) return;
  const founders = await tx.member.count({ where: { organizationId, role: "founder", active: true } });
  if (founders === 0) throw new ApiError("conflict", LAST_FOUNDER);
}

export async function hasActiveFounder(tx: Transaction, organizationId: string): Promise<boolean> {
  return (await tx.member.count({ where: { organizationId, role: "founder", active: true } })) > 0;
}
