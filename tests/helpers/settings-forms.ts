import { findSessionUserByEmail, type SessionUser } from "@/lib/data/users";

// What the settings pages' action logic is called with: the signed-in user as the database knows them, and the
// form's data as the browser posts it.

export async function user(email: string): Promise<SessionUser> {
  const found = await findSessionUserByEmail(email);
  if (!found) throw new Error(`demo user ${email} is missing`);
  return found;
}

/** A form as posted: a field given a list is repeated, as checkboxes are. */
export function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
}
