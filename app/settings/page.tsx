import { redirect } from "next/navigation";
import { isDatabaseUnavailable } from "@/lib/errors";
import { signInPath } from "@/lib/session/callback-path";
import { getSessionUser } from "@/lib/session/session";
import { firstSectionFor, SETTINGS_HOME, SETTINGS_SECTIONS } from "@/lib/settings/sections";

// /settings, the site header's link: the first section the signed-in user may open. While the database does not
// answer, the first section, whose page says so.
export default async function SettingsPage(): Promise<never> {
  const user = await getSessionUser().catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) redirect(SETTINGS_SECTIONS[0].href);
    throw error;
  });
  redirect(user ? firstSectionFor(user).href : signInPath(SETTINGS_HOME));
}
