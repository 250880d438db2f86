import type { Metadata } from "next";
import Link from "next/link";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { settingsSection } from "@/lib/settings/sections";

// A stand-in until the roster page lands (issue 36, items 5–8): the team section's page, leading to its invitations.
export const metadata: Metadata = { title: settingsSection("team").label };

export default settingsPage("team", async ({ heading }) => (
  <>
    <SectionHead title={heading}>Invite people and reset passwords with one-time links.</SectionHead>
    <p>
      <Link href="/settings/team/invitations">Invitations</Link>
    </p>
  </>
));
