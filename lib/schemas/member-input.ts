import { isPossiblePhoneNumber } from "libphonenumber-js";
import { z } from "zod";
import { memberRoleSchema } from "./team";

// One person of the roster as Settings → Team and `sundown members import` take them: the same rules on every
// surface (lib/data/members.ts writes them). Contact details are lists, since a person may have several of each:
// the first address and the first chat handle go on the roster row (members.email, members.chat_handle), the rest
// and every phone number in member_contacts; all are masked in report text and never served.

const MEMBER_LIMITS = { name: 100, department: 100, contact: 254, contactsPerKind: 10 } as const;

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what} is at most ${max} characters`)
    // A control character in a name would reach every page and answer that shows it.
    .refine((value) => !/\p{Cc}/u.test(value), `${what} cannot hold control characters`);

const memberEmail = z
  .string()
  .trim()
  .max(MEMBER_LIMITS.contact, `an e-mail address is at most ${MEMBER_LIMITS.contact} characters`)
  .pipe(z.email("must be an e-mail address such as ana@example.com"));

const chatHandle = text(MEMBER_LIMITS.contact, "a chat handle")
  .min(2, "a chat handle has at least 2 characters")
  .refine((value) => !/\s/u.test(value), "a chat handle has no spaces");

// International form, so that the phone finder masks the number wherever a report writes it (lib/data/contact-phones.ts).
const phoneNumber = text(40, "a phone number").refine(
  (value) => value.startsWith("+") && isPossiblePhoneNumber(value),
  "must be a phone number with its country code, such as +44 20 7946 0958",
);

function contactList<T extends z.ZodType<string>>(item: T, kind: string) {
  return z
    .array(item)
    .max(MEMBER_LIMITS.contactsPerKind, `at most ${MEMBER_LIMITS.contactsPerKind} ${kind}`)
    .transform((values) => [...new Map(values.map((v) => [v.toLowerCase(), v])).values()]);
}

export const memberInput = z.object({
  name: text(MEMBER_LIMITS.name, "a name").min(1, "enter the person's name"),
  /** The person's address on the roster: what an import matches them by, and an invitation binds to. */
  email: memberEmail.nullable(),
  role: z.enum(memberRoleSchema.options, { error: `must be ${memberRoleSchema.options.join(", ")}` }),
  department: text(MEMBER_LIMITS.department, "a department").transform((value) => value || null),
  external: z.boolean(),
  active: z.boolean(),
  /** More addresses besides `email`. */
  otherEmails: contactList(memberEmail, "other e-mail addresses"),
  chats: contactList(chatHandle, "chat handles"),
  phones: contactList(phoneNumber, "phone numbers"),
});

export type MemberInput = z.infer<typeof memberInput>;
