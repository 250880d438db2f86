import { z } from "zod";
import { createInvitation, invitationLink, revokeInvitation } from "@/lib/data/invitations";
import { getEnv, signInUrl } from "@/lib/env";
import { sendLinkMail } from "@/lib/mail/link-message";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { emailAddressSchema } from "@/lib/schemas/email-address";
import type { MemberRole } from "@/lib/schemas/team";
import { settingsAction, settingsFormAction, type StateOf } from "./action";
import { singleFields } from "./form-fields";

// Settings → Team → Invitations (issue 36), on the settings kit (lib/settings/action.ts): founders and leads make
// one-time links for their own organization, never above their own role (the data layer refuses that, so the CLI
// and the page say the same), and revoke them. The link is in the one response that made it, and e-mailed when mail
// is on; a failed send is said, and the link shown anyway.

/** A new link as the page shows it once. */
export interface NewLink {
  id: string;
  email: string;
  role: MemberRole;
  link: string;
  expiresAt: string;
  resetsPassword: boolean;
  mail: "sent" | "mail off" | "failed";
}

const CREATE_FORM = {
  fields: ["email", "role"],
  echo: { email: "text", role: "text" },
  invalid: "No link was made. Fix the fields marked below.",
} as const;

export type InvitationField = (typeof CREATE_FORM.fields)[number];

export const createInvitationAction = settingsFormAction({
  section: "team",
  read: singleFields("email", "role"),
  schema: z.object({
    email: emailAddressSchema,
    role: z.enum(["founder", "lead", "member"], { error: "Choose a role." }),
  }),
  form: CREATE_FORM,
  run: async ({ email, role }, { organizationId, actor, user }): Promise<{ status: "created"; link: NewLink }> => {
    const created = await createInvitation({ organizationId, email, role, actor: { ...actor, role: user.role } });
    const link = invitationLink(new URL(signInUrl(getEnv())).origin, created.token);
    const outcome = await sendLinkMail({
      to: email,
      link,
      expiresAt: created.expiresAt,
      organizationName: user.organization.name,
      role,
      resetsPassword: created.resetsPassword,
    });
    return {
      status: "created",
      link: {
        id: created.id,
        email,
        role,
        link,
        expiresAt: created.expiresAt.toISOString(),
        resetsPassword: created.resetsPassword,
        mail: outcome.sent ? "sent" : outcome.reason,
      },
    };
  },
  audit: { action: "invitations.create", done: ({ link }) => ({ invitation_id: link.id }) },
});

export const revokeInvitationAction = settingsAction({
  section: "team",
  read: singleFields("invitationId"),
  schema: z.object({
    invitationId: z
      .string()
      .regex(UUID_SHAPE)
      .transform((id) => id.toLowerCase()),
  }),
  notFound: "This invitation does not exist in your organization.",
  run: async ({ invitationId }, { organizationId, actor, user }) => {
    const { item, changed } = await revokeInvitation(organizationId, invitationId, { ...actor, role: user.role });
    return { status: "revoked" as const, invitationId, changed, state: item.status };
  },
  audit: { action: "invitations.revoke", ids: ({ invitationId }) => ({ invitation_id: invitationId }) },
});

export type CreateInvitationState = StateOf<typeof createInvitationAction>;
export type RevokeInvitationState = StateOf<typeof revokeInvitationAction>;
