import type { ReactNode } from "react";
import { AccountBar } from "@/components/account-bar";
import { isDatabaseUnavailable } from "@/lib/errors";
import { getSessionUser } from "@/lib/session/session";

// "Your day" as the settings pages are laid out, without their navigation: who is signed in, then the page, which
// alone says what to do when signed out or when the database does not answer (components/settings/settings-page.tsx).
export default async function DayLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser().catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  });
  return (
    <div className="container settings">
      {user && <AccountBar user={user} />}
      {children}
    </div>
  );
}
