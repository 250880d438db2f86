import Link from "next/link";
import type { SessionUser } from "@/lib/session/session";
import { SETTINGS_HOME, sectionsFor, YOUR_DAY } from "@/lib/settings/sections";
import { SignOutButton } from "./sign-out-button";

const ROLE_LABELS = { founder: "Founder", lead: "Lead", member: "Member" } as const;

export function AccountBar({ user }: { user: SessionUser }) {
  return (
    <div className="account-bar">
      <p style={{ margin: 0 }}>
        Signed in as <strong>{user.name}</strong> · {ROLE_LABELS[user.role]} at{" "}
        <strong>{user.organization.name}</strong>
      </p>
      <nav aria-label="Account" className="account-links">
        <Link href={YOUR_DAY.href}>{YOUR_DAY.label}</Link>
        {/* A member opens no settings section yet: the link would only lead back to their day. */}
        {sectionsFor(user).length > 0 && <Link href={SETTINGS_HOME}>Settings</Link>}
        <SignOutButton />
      </nav>
    </div>
  );
}
