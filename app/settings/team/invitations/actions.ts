"use server";

import { createInvitationAction, revokeInvitationAction } from "@/lib/settings/invitation-actions";

// Server actions of /settings/team/invitations, each the settings kit's pipeline (lib/settings/action.ts): the
// session cookie only, the team section's role rule, the form, the change and its activity line, the pages
// revalidated. Next's built-in Origin check (and proxy.ts) refuse cross-site posts.

export const createInvitation = createInvitationAction.serve;
export const revokeInvitation = revokeInvitationAction.serve;
