import { z } from "zod";
import { uuid } from "@/lib/schemas/common";
import { memberInput } from "@/lib/schemas/member-input";
import { singleField } from "./form-fields";

// Settings → Team's forms as the server reads them, over the roster's one rule for a person
// (lib/schemas/member-input.ts), which the import applies too. Lists of contact details are text areas, one
// value a line; a checkbox is sent (as "true") when ticked and not at all when not.

const memberId = uuid.transform((id) => id.toLowerCase());

/** The fields of the add and edit forms, in the form's order: a refusal names these. */
export const MEMBER_FORM_FIELDS = ["name", "email", "role", "department", "otherEmails", "chats", "phones"] as const;

const lines = (value: unknown) =>
  typeof value === "string"
    ? value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
    : value;

export function memberFormFields(formData: FormData) {
  const text = (name: string) => singleField(formData, name);
  const email = text("email");
  return {
    memberId: text("memberId"),
    name: text("name"),
    email: typeof email === "string" && email.trim() === "" ? null : email,
    role: text("role"),
    department: text("department") ?? "",
    external: formData.get("external") === "true",
    active: formData.has("active") ? formData.get("active") === "true" : true,
    otherEmails: lines(text("otherEmails") ?? ""),
    chats: lines(text("chats") ?? ""),
    phones: lines(text("phones") ?? ""),
  };
}

export const addMemberInput = memberInput;

export const editMemberInput = memberInput.extend({ memberId });

export const memberIdInput = z.object({ memberId });

export const deactivateMemberInput = z.object({
  memberId,
  revokeKeyIds: z.array(uuid.transform((id) => id.toLowerCase())).max(100),
});

export function deactivateFields(formData: FormData) {
  return { memberId: singleField(formData, "memberId"), revokeKeyIds: formData.getAll("revokeKeyIds") };
}

export const importRosterInput = z.object({
  step: z.enum(["preview", "confirm"]),
  /** The uploaded file (the preview), or its text carried in the preview's form (the confirmation). */
  file: z.instanceof(Blob).optional(),
  content: z.string().optional(),
  fileName: z.string().max(255).optional(),
  deactivateMissing: z.boolean(),
});

export function importRosterFields(formData: FormData) {
  const file = formData.get("file");
  return {
    step: singleField(formData, "step"),
    file: file instanceof Blob && file.size > 0 ? file : undefined,
    content: formData.get("content") ?? undefined,
    fileName: formData.get("fileName") ?? (file instanceof File && file.size > 0 ? file.name : undefined),
    deactivateMissing: formData.get("deactivateMissing") === "true",
  };
}

/** How long one absence may be: a year is a leave; longer is someone to deactivate. */
const ABSENCE_DAYS_MAX = 366;

const dayField = (what: string) =>
  z
    .string({ error: `Enter the ${what} day.` })
    .trim()
    .min(1, { error: `Enter the ${what} day.` })
    .pipe(z.iso.date({ error: `Enter the ${what} day as a date, YYYY-MM-DD.` }));

export const absenceInput = z
  .object({ memberId, firstDay: dayField("first"), lastDay: dayField("last") })
  .refine(({ firstDay, lastDay }) => lastDay >= firstDay, {
    error: "The last day cannot be before the first.",
    path: ["lastDay"],
  })
  .refine(
    ({ firstDay, lastDay }) => (Date.parse(lastDay) - Date.parse(firstDay)) / 86_400_000 + 1 <= ABSENCE_DAYS_MAX,
    {
      error: `An absence lasts at most ${ABSENCE_DAYS_MAX} days.`,
      path: ["lastDay"],
    },
  );

export const removeAbsenceInput = z.object({ memberId, absenceId: uuid.transform((id) => id.toLowerCase()) });
