import type { ReactNode } from "react";
import { AccountBar } from "@/components/account-bar";
import { SettingsNav } from "@/components/settings/settings-nav";
import { isDatabaseUnavailable } from "@/lib/errors";
import { getSessionUser } from "@/lib/session/session";
import { sectionsFor } from "@/lib/settings/sections";

// Every settings page: who is signed in, and the sections their role may open (lib/settings/sections.ts). Signed
// out, or with the database not answering, the page alone says what to do (components/settings/settings-page.tsx):
// the same session read, done once per request.
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser().catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  });
  return (
    <div className="container settings">
      {user && (
        <>
          <AccountBar user={user} />
          <SettingsNav sections={sectionsFor(user).map(({ id, label, href }) => ({ id, label, href }))} />
        </>
      )}
      {children}
    </div>
  );
}
