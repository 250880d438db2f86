import { z } from "zod";
import { updateOrganizationSettings } from "@/lib/data/organizations";
import { organizationNameSchema } from "@/lib/schemas/visible-name";
import { timeZoneSchema } from "@/lib/schemas/time-zone";
import { settingsFormAction, type StateOf } from "./action";
import { singleFields } from "./form-fields";

// Settings → Organization on the settings kit: the organization's name and time zone, founders only. Each change
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
