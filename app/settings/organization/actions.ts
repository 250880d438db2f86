"use server";

import { updateOrganization } from "@/lib/settings/organization-actions";

// Server actions of /settings/organization, the settings kit's pipeline (lib/settings/action.ts).

export const updateOrganizationAction = updateOrganization.serve;
