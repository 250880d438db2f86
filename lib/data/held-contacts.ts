import { z } from "zod";
import { knownContactsOf, knownContactsSql, memberContactsSchema } from "./known-contacts";
import type { KnownContacts } from "./known-contact-matcher";

// The contact-details matchers this process holds, by version (organizations.contacts_version, which triggers
// move on every change to the details; prisma/migrations/20261202000000_contacts_version). A report read asks
// for the organization's version only; when this process does not hold it, the read runs once more bringing
// the details with it (contactsSql's second form), so the members and their sign-ins are read and folded once
// per change instead of on every request, and the matcher used is always the one for the details of the
// answer's own snapshot. Two forms, not one statement that decides in SQL: the members' subquery, run or not,
// is set up by the executor on every execution (about a tenth of a keyed list's database CPU; bench/findings.md).

/** The matchers a read may use, as they were when it started. */
export interface HeldContacts {
  readonly matchers: ReadonlyMap<string, Held>;
}

interface Held {
  organizationId: string;
  matcher: KnownContacts;
}

// Organizations whose matcher is kept, the least recently learnt first out; past it, details are read again.
const MAX_HELD = 256;

let held: HeldContacts = { matchers: new Map() };

/** The matchers held now. A read keeps the object it started with: later changes make a new one and leave it whole. */
export function heldContacts(): HeldContacts {
  return held;
}

/**
 * SQL for the organization's contacts version and, with `withMembers`, its details (without them, `members` is
 * null); checked by contactsJsonSchema. Taken from `organizationRow` where the statement has joined the
 * organization's row already, or else from a subquery of its own.
 */
export function contactsSql(organizationId: string, withMembers: boolean, organizationRow?: string): string {
  const o = organizationRow ?? "o";
  const members = withMembers ? `coalesce(${knownContactsSql(`${o}.id`)}, '[]'::json)` : "NULL";
  const contacts = `json_build_object('organization_id', ${o}.id, 'version', ${o}.contacts_version::text, 'members', ${members})`;
  return organizationRow ? contacts : `(SELECT ${contacts} FROM organizations o WHERE o.id = ${organizationId})`;
}

export const contactsJsonSchema = z
  .object({
    organization_id: z.string(),
    version: z.string().regex(/^\d+$/),
    /** null: asked for the version only. */
    members: memberContactsSchema,
  })
  .nullable();

/**
 * Whether an answer of contactsSql (as the database sent it, not yet checked) must be asked again with the
 * members: it names a version `sent` holds no matcher for.
 */
export function contactsUnheld(sent: HeldContacts, json: unknown): boolean {
  const contacts = json as { version?: unknown; members?: unknown } | null | undefined;
  return !!contacts && contacts.members === null && !sent.matchers.has(String(contacts.version));
}

/** The matcher for what contactsSql answered to a read that started with `sent`; learns the details it brought. */
export function contactsFor(sent: HeldContacts, json: z.infer<typeof contactsJsonSchema>): KnownContacts {
  // No organization row: nothing of it can be served either.
  if (!json) return knownContactsOf(null);
  const { organization_id: organizationId, version, members } = json;
  if (members === null) {
    const kept = sent.matchers.get(version);
    if (!kept) throw new Error(`contacts version ${version} is not held: ask again with the members`);
    return kept.matcher;
  }
  const matcher = knownContactsOf(members);
  learn(organizationId, version, matcher);
  return matcher;
}

function learn(organizationId: string, version: string, matcher: KnownContacts): void {
  // A read of an older snapshot can answer after one of a newer: the newer version stays.
  const newer = [...held.matchers].some(
    ([kept, { organizationId: id }]) => id === organizationId && BigInt(kept) >= BigInt(version),
  );
  if (newer) return;
  // Copied, not changed in place: reads in flight keep the map they sent.
  const matchers = new Map([...held.matchers].filter(([, kept]) => kept.organizationId !== organizationId));
  matchers.set(version, { organizationId, matcher });
  while (matchers.size > MAX_HELD) matchers.delete(matchers.keys().next().value!);
  held = { matchers };
}
