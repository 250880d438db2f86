import type { SessionUser } from "@/lib/session/session";
import { SignOutButton } from "./sign-out-button";

const ROLE_LABELS = { founder: "Founder", lead: "Lead", member: "Member" } as const;

export function AccountBar({ user }: { user: SessionUser }) {
  return (
    <div className="account-bar">
      <p style={{ margin: 0 }}>
        Signed in as <strong>{user.name}</strong> · {ROLE_LABELS[user.role]} at{" "}
        <strong>{user.organization.name}</strong>
      </p>
      <SignOutButton />
    </div>
  );
}
