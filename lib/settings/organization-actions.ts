import { z } from "zod";
import { removeKpiTarget, setKpiTarget } from "@/lib/data/kpi-targets";
import { updateOrganizationSettings } from "@/lib/data/organizations";
import { ApiError } from "@/lib/errors";
import { organizationNameSchema } from "@/lib/schemas/visible-name";
import { timeZoneSchema } from "@/lib/schemas/time-zone";
import { settingsAction, settingsFormAction, type StateOf } from "./action";
import { singleField, singleFields } from "./form-fields";

// Settings → Organization on the settings kit: the organization's name and time zone, when its day's reports are
// written, and its KPI targets; founders change them (leads see them). Each change
// is a line in the activity trail (lib/data/organizations.ts). The time zone's rule is the CLI's
// (`sundown orgs update --time-zone`): an IANA name, stored under its canonical spelling.

const SETTINGS_FORM = {
  fields: ["name", "timeZone"],
  echo: { name: "text", timeZone: "text" },
  invalid: "Nothing was changed. Fix the fields marked below.",
  // The database not knowing a zone the runtime knows is said beside the zone.
  invalidField: "timeZone",
} as const;

export type OrganizationField = (typeof SETTINGS_FORM.fields)[number];

export const updateOrganization = settingsFormAction({
  section: "organization",
  read: singleFields("name", "timeZone"),
  schema: z.object({ name: organizationNameSchema, timeZone: timeZoneSchema }),
  form: SETTINGS_FORM,
  run: async ({ name, timeZone }, { organizationId, actor }) => {
    const saved = await updateOrganizationSettings(organizationId, { name, timeZone }, actor);
    const changed = saved.name !== saved.previous.name || saved.timeZone !== saved.previous.timeZone;
    return { status: "saved" as const, name: saved.name, timeZone: saved.timeZone, changed };
  },
  audit: { action: "organization.update" },
});

export type UpdateOrganizationState = StateOf<typeof updateOrganization>;

// When the day's reports are written: the cutoff (HH:MM in the organization's time zone) and the working days
// (ISO weekdays, checkboxes posting 1 … 7), the database's own rules said on the form first.

const CUTOFF_SHAPE = /^([01]\d|2[0-3]):[0-5]\d$/;

const SCHEDULE_FORM = {
  fields: ["cutoffTime", "workingDays"],
  echo: { cutoffTime: "text", workingDays: "list" },
  invalid: "Nothing was changed. Fix the fields marked below.",
} as const;

export type ScheduleField = (typeof SCHEDULE_FORM.fields)[number];

export const updateReportSchedule = settingsFormAction({
  section: "organization",
  read: (formData) => ({
    cutoffTime: singleField(formData, "cutoffTime"),
    workingDays: formData.getAll("workingDays"),
  }),
  schema: z.object({
    cutoffTime: z
      .string({ error: "Enter the cutoff as HH:MM, e.g. 18:00." })
      .trim()
      .regex(CUTOFF_SHAPE, { error: "Enter the cutoff as HH:MM on a 24-hour clock, e.g. 18:00." }),
    workingDays: z
      .array(z.enum(["1", "2", "3", "4", "5", "6", "7"], { error: "Choose days of the week from the list." }))
      .min(1, { error: "Choose at least one working day." })
      .transform((days) => [...new Set(days.map(Number))].sort((a, b) => a - b)),
  }),
  form: SCHEDULE_FORM,
  run: async ({ cutoffTime, workingDays }, { organizationId, actor }) => {
    const saved = await updateOrganizationSettings(organizationId, { cutoffTime, workingDays }, actor);
    const changed =
      saved.cutoffTime !== saved.previous.cutoffTime || saved.workingDays.join() !== saved.previous.workingDays.join();
    return { status: "saved" as const, cutoffTime: saved.cutoffTime, workingDays: saved.workingDays, changed };
  },
  audit: { action: "organization.schedule" },
});

export type UpdateScheduleState = StateOf<typeof updateReportSchedule>;

// KPI targets: set one (a name already there, folded, changes its target), or remove one by its folded name.

const KPI_FORM = {
  fields: ["name", "target", "direction", "unit"],
  echo: { name: "text", target: "text", direction: "text", unit: "text" },
  invalid: "No target was set. Fix the fields marked below.",
  invalidField: "name",
} as const;

export type KpiTargetField = (typeof KPI_FORM.fields)[number];

export const KPI_NAME_MAX = 100;
const TARGET_NOT_A_NUMBER = "Enter the target as a number, e.g. 120 or 0.5.";
const KPI_UNIT_MAX = 20;

export const setKpiTargetAction = settingsFormAction({
  section: "organization",
  read: singleFields("name", "target", "direction", "unit"),
  schema: z.object({
    name: z
      .string({ error: "Enter the KPI's name." })
      .trim()
      .min(1, { error: "Enter the KPI's name." })
      .max(KPI_NAME_MAX, { error: `Keep the name to ${KPI_NAME_MAX} characters.` }),
    target: z
      .string({ error: "Enter the target, a number." })
      .trim()
      .min(1, { error: "Enter the target, a number." })
      .transform(Number)
      .pipe(z.number({ error: TARGET_NOT_A_NUMBER }).finite({ error: TARGET_NOT_A_NUMBER })),
    direction: z.enum(["at_least", "at_most"], { error: "Choose at least or at most." }),
    unit: z
      .string()
      .trim()
      .max(KPI_UNIT_MAX, { error: `Keep the unit to ${KPI_UNIT_MAX} characters.` })
      .optional()
      .transform((unit) => unit || null),
  }),
  form: KPI_FORM,
  run: async (input, { organizationId, actor }) => {
    const { target, outcome } = await setKpiTarget(organizationId, input, actor);
    return { status: "saved" as const, name: target.name, outcome };
  },
  audit: { action: "organization.kpi_target.set" },
});

export type SetKpiTargetState = StateOf<typeof setKpiTargetAction>;

export const removeKpiTargetAction = settingsAction({
  section: "organization",
  read: singleFields("nameKey"),
  schema: z.object({ nameKey: z.string().min(1).max(500) }),
  notFound: "This KPI has no target in your organization.",
  run: async ({ nameKey }, { organizationId, actor }) => {
    if (!(await removeKpiTarget(organizationId, nameKey, actor))) {
      throw new ApiError("not_found", "No such target.");
    }
    return { status: "removed" as const };
  },
  audit: { action: "organization.kpi_target.remove" },
});
