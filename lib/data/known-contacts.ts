import { z } from "zod";
import { knownContactMatcher, NO_KNOWN_CONTACTS, type KnownContacts } from "./known-contact-matcher";

// An organization's own contact details: the e-mail addresses and chat handles Sundown stores for its members
// (members.email, members.chat_handle, and the more of each in member_contacts) and their sign-ins (users.email).
// Their phone numbers (member_contacts too) are written in international form (lib/data/members.ts checks), which
// the phone finder masks in any text (lib/data/contact-phones.ts), so they need no list here. No pattern can tell that `@mchen` or
// `maya.chen` is a handle, so these values are removed wherever they appear in the organization's reports
// (lib/data/known-contact-matcher.ts finds them). The report reads bring them along in the same statement when the
// server does not hold them at the version the statement sees (lib/data/held-contacts.ts), so scrubbing always
// uses the members as they are.

/**
 * Each member's address, chat handle, sign-in address and further addresses and handles, as knownContactsSql gives
 * them (null: no members).
 */
export const memberContactsSchema = z
  .array(
    z.tuple([
      z.string().nullable(),
      z.string().nullable(),
      z.string().nullable(),
      z.array(z.tuple([z.enum(["email", "chat"]), z.string()])).nullable(),
    ]),
  )
  .nullable();
export type MemberContacts = z.infer<typeof memberContactsSchema>;

/** SQL for the contact details of the members of the organization `organizationId` (an SQL uuid expression). */
export function knownContactsSql(organizationId: string): string {
  const more = `(SELECT json_agg(json_build_array(c.kind, c.value)) FROM member_contacts c
      WHERE c.member_id = m.id AND c.kind IN ('email', 'chat'))`;
  return `(SELECT json_agg(json_build_array(m.email, m.chat_handle, u.email, ${more}))
    FROM members m LEFT JOIN users u ON u.member_id = m.id WHERE m.organization_id = ${organizationId})`;
}

/** What can run the SQL: Prisma's client or a transaction of it. */
interface RawQueries {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** The organization's known contact details as they are now (in `db`'s transaction, when it is one). */
export async function loadKnownContacts(db: RawQueries, organizationId: string): Promise<KnownContacts> {
  const [row] = await db.$queryRawUnsafe<{ members: unknown }[]>(
    `SELECT ${knownContactsSql("$1::uuid")} AS members`,
    organizationId,
  );
  return knownContactsOf(memberContactsSchema.parse(row?.members ?? null));
}

/** The matcher for these members' contact details; building it folds every value (lib/data/held-contacts.ts keeps them). */
export function knownContactsOf(members: MemberContacts): KnownContacts {
  const emails = new Set<string>();
  const handles = new Set<string>();
  for (const [email, handle, signIn, more] of members ?? []) {
    if (email) emails.add(email);
    if (signIn) emails.add(signIn);
    if (handle) handles.add(handle);
    for (const [kind, value] of more ?? []) (kind === "email" ? emails : handles).add(value);
  }
  if (emails.size === 0 && handles.size === 0) return NO_KNOWN_CONTACTS;
  return knownContactMatcher({ emails: [...emails], handles: [...handles] });
}
