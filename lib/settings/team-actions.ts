import { addMemberAbsence, removeMemberAbsence } from "@/lib/data/member-absences";
import { addMember, authorityOf, deactivateMember, reactivateMember, updateMember } from "@/lib/data/members";
import {
  importMembers,
  MemberImportError,
  rosterFileFormat,
  type MemberImportProblem,
  type MemberImportResult,
} from "@/lib/data/member-import";
import { deliverSoon } from "@/lib/webhooks/soon";
import { settingsAction, settingsFormAction, type StateOf } from "./action";
import { singleFields } from "./form-fields";
import {
  absenceInput,
  addMemberInput,
  deactivateFields,
  deactivateMemberInput,
  editMemberInput,
  importRosterFields,
  importRosterInput,
  MEMBER_FORM_FIELDS,
  memberFormFields,
  memberIdInput,
  removeAbsenceInput,
} from "./team-inputs";

// Settings → Team: its actions on the settings kit (lib/settings/action.ts). The section admits founders and
// leads; the finer rules (a lead makes no founder and changes none, the last active founder stays) are the data
// layer's (lib/data/member-writes.ts), the same for the CLI's import.

const NOT_IN_ORGANIZATION = "This person does not exist in your organization.";

const MEMBER_ECHO = {
  name: "text",
  email: "text",
  role: "text",
  department: "text",
  external: "text",
  active: "text",
  otherEmails: "text",
  chats: "text",
  phones: "text",
} as const;

export type MemberField = (typeof MEMBER_FORM_FIELDS)[number];

export const addPerson = settingsFormAction({
  section: "team",
  read: memberFormFields,
  schema: addMemberInput,
  form: { fields: MEMBER_FORM_FIELDS, echo: MEMBER_ECHO, invalid: "Nobody was added. Fix the fields marked below." },
  run: async (input, { organizationId, actor, user }) => {
    const { id } = await addMember(organizationId, actor, authorityOf(user.role), input);
    return { status: "added" as const, member: { id, name: input.name } };
  },
  audit: { action: "team.add", done: ({ member }) => ({ member_id: member.id }) },
  // member.updated, sent now where there is no delivery loop (a serverless platform).
  after: () => deliverSoon(),
});

export const editPerson = settingsFormAction({
  section: "team",
  read: memberFormFields,
  schema: editMemberInput,
  form: { fields: MEMBER_FORM_FIELDS, echo: MEMBER_ECHO, invalid: "Nothing was changed. Fix the fields marked below." },
  run: async ({ memberId, ...input }, { organizationId, actor, user }) => {
    const { change } = await updateMember(organizationId, actor, authorityOf(user.role), memberId, input);
    return { status: "saved" as const, member: { id: memberId, name: input.name }, change };
  },
  audit: { action: "team.edit", ids: ({ memberId }) => ({ member_id: memberId }) },
  // member.updated, sent now where there is no delivery loop (a serverless platform).
  after: () => deliverSoon(),
});

export const deactivatePerson = settingsAction({
  section: "team",
  read: deactivateFields,
  schema: deactivateMemberInput,
  notFound: NOT_IN_ORGANIZATION,
  run: async ({ memberId, revokeKeyIds }, { organizationId, actor, user, now }) => {
    const done = await deactivateMember(organizationId, actor, authorityOf(user.role), memberId, {
      revokeKeyIds,
      now,
    });
    return { status: "deactivated" as const, memberId, revokedKeys: done.revokedKeyIds.length };
  },
  audit: {
    action: "team.deactivate",
    ids: ({ memberId }) => ({ member_id: memberId }),
    done: ({ revokedKeys }) => ({ revoked_keys: String(revokedKeys) }),
  },
  after: () => deliverSoon(),
});

export const reactivatePerson = settingsAction({
  section: "team",
  read: singleFields("memberId"),
  schema: memberIdInput,
  notFound: NOT_IN_ORGANIZATION,
  run: async ({ memberId }, { organizationId, actor, user }) => {
    await reactivateMember(organizationId, actor, authorityOf(user.role), memberId);
    return { status: "reactivated" as const, memberId };
  },
  audit: { action: "team.reactivate", ids: ({ memberId }) => ({ member_id: memberId }) },
  // member.updated, sent now where there is no delivery loop (a serverless platform).
  after: () => deliverSoon(),
});

/** What the upload answers: the preview (nothing written) with the file to confirm, the import, or its problems. */
export type ImportDone =
  | {
      status: "preview";
      result: MemberImportResult;
      content: string;
      fileName: string;
      deactivateMissing: boolean;
    }
  | { status: "imported"; result: MemberImportResult }
  | { status: "invalid"; problems: MemberImportProblem[] };

export const importRoster = settingsAction({
  section: "team",
  read: importRosterFields,
  schema: importRosterInput,
  notFound: "Choose a CSV or JSON file of the roster.",
  run: async (
    { step, file, content, fileName = "", deactivateMissing },
    { organizationId, actor, user },
  ): Promise<ImportDone> => {
    const text = step === "preview" ? await file?.text() : content;
    if (text === undefined) return { status: "invalid", problems: [{ row: "file", message: "choose a file" }] };
    try {
      const result = await importMembers(
        organizationId,
        actor,
        authorityOf(user.role),
        { text, format: rosterFileFormat(fileName || null, text) },
        { dryRun: step === "preview", deactivateMissing },
      );
      return step === "preview"
        ? { status: "preview", result, content: text, fileName, deactivateMissing }
        : { status: "imported", result };
    } catch (error) {
      if (error instanceof MemberImportError) return { status: "invalid", problems: error.problems };
      throw error;
    }
  },
  audit: { action: "team.import", ids: ({ step }) => ({ step }) },
  // member.updated, sent now where there is no delivery loop (a serverless platform).
  after: () => deliverSoon(),
});

export type AddPersonState = StateOf<typeof addPerson>;
export type EditPersonState = StateOf<typeof editPerson>;
export type DeactivatePersonState = StateOf<typeof deactivatePerson>;
export type ReactivatePersonState = StateOf<typeof reactivatePerson>;
export type ImportRosterState = StateOf<typeof importRoster>;

// Absences: a person away from one day to another (both included), shown only as "away".

const ABSENCE_FORM = {
  fields: ["firstDay", "lastDay"],
  echo: { firstDay: "text", lastDay: "text" },
  invalid: "No absence was added. Fix the fields marked below.",
} as const;

export type AbsenceField = (typeof ABSENCE_FORM.fields)[number];

export const addAbsence = settingsFormAction({
  section: "team",
  read: singleFields("memberId", "firstDay", "lastDay"),
  schema: absenceInput,
  form: ABSENCE_FORM,
  run: async (absence, { organizationId, actor, user }) => {
    const added = await addMemberAbsence(organizationId, actor, authorityOf(user.role), absence);
    return { status: "added" as const, added, firstDay: absence.firstDay, lastDay: absence.lastDay };
  },
  audit: { action: "team.absence.add", ids: ({ memberId }) => ({ member_id: memberId }) },
});

export type AddAbsenceState = StateOf<typeof addAbsence>;

export const removeAbsence = settingsAction({
  section: "team",
  read: singleFields("memberId", "absenceId"),
  schema: removeAbsenceInput,
  notFound: "This absence does not exist in your organization.",
  run: async ({ memberId, absenceId }, { organizationId, actor, user }) => {
    await removeMemberAbsence(organizationId, actor, authorityOf(user.role), memberId, absenceId);
    return { status: "removed" as const };
  },
  audit: {
    action: "team.absence.remove",
    ids: ({ memberId, absenceId }) => ({ member_id: memberId, absence_id: absenceId }),
  },
});
