"use server";

import { saveDay } from "@/lib/settings/day-actions";

// The server action of /day, the settings kit's pipeline (lib/settings/action.ts).

export const saveDayAction = saveDay.serve;
