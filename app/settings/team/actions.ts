"use server";

import {
  addAbsence,
  addPerson,
  deactivatePerson,
  editPerson,
  importRoster,
  reactivatePerson,
  removeAbsence,
} from "@/lib/settings/team-actions";

// Server actions of /settings/team, each the settings kit's pipeline (lib/settings/action.ts): the session
// cookie only, the role, the form, the change, its audit line, the pages revalidated.

export const addPersonAction = addPerson.serve;
export const editPersonAction = editPerson.serve;
export const deactivatePersonAction = deactivatePerson.serve;
export const reactivatePersonAction = reactivatePerson.serve;
export const importRosterAction = importRoster.serve;
export const addAbsenceAction = addAbsence.serve;
export const removeAbsenceAction = removeAbsence.serve;
