import { z } from "zod";
import { knownContactsOf, knownContactsSql, memberContactsSchema } from "./known-contacts";
import type { KnownContacts } from "./known-contact-matcher";

// The contact-details matchers this process holds, by version (organizations.contacts_version, which triggers
// move on every change to the details; prisma/migrations/20261202000000_contacts_version). A report read sends
// the versions held and gets the details back only for a version not among them: the members and their sign-ins
// are read and folded once per change instead of on every request, and the matcher used is always the one for
// the details of the read's own snapshot.

/** What a read sent: the versions as an SQL array literal, and their matchers, kept for that read's answer. */
export interface HeldContacts {
  readonly versions: string;
  readonly matchers: ReadonlyMap<string, Held>;
}

interface Held {
  organizationId: string;
  matcher: KnownContacts;
}

// Organizations whose matcher is kept, the least recently learnt first out; past it, details are read again. Each
// read sends every held version, so this bounds its parameter too.
const MAX_HELD = 256;

let held: HeldContacts = { versions: "{}", matchers: new Map() };

/** The matchers held now. A read keeps the object it sent: later changes make a new one and leave it whole. */
export function heldContacts(): HeldContacts {
  return held;
}

/**
 * SQL for the organization's contacts version and, unless it is among `versionsPlaceholder` (an SQL bigint[]
 * literal's placeholder), its details; checked by contactsJsonSchema.
 */
export function contactsSql(organizationId: string, versionsPlaceholder: string): string {
  return `(SELECT json_build_object('organization_id', o.id, 'version', o.contacts_version::text, 'members',
    CASE WHEN o.contacts_version = ANY(${versionsPlaceholder}::bigint[]) THEN NULL
      ELSE coalesce(${knownContactsSql("o.id")}, '[]'::json) END)
    FROM organizations o WHERE o.id = ${organizationId})`;
}

export const contactsJsonSchema = z
  .object({
    organization_id: z.string(),
    version: z.string().regex(/^\d+$/),
    /** null: the version was among those sent. */
    members: memberContactsSchema,
  })
  .nullable();

/** The matcher for what contactsSql answered to a read that sent `sent`; learns the details it brought. */
export function contactsFor(sent: HeldContacts, json: z.infer<typeof contactsJsonSchema>): KnownContacts {
  // No organization row: nothing of it can be served either.
  if (!json) return knownContactsOf(null);
  const { organization_id: organizationId, version, members } = json;
  if (members === null) {
    const kept = sent.matchers.get(version);
    if (!kept) throw new Error(`contacts version ${version} was not sent as held`);
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
  held = { versions: `{${[...matchers.keys()].join(",")}}`, matchers };
}
