import type { CommandResult } from "@/lib/cli/commands";
import type { OrganizationRef } from "@/lib/data/organizations";
import { printableJson } from "./printable";

// What `orgs create` and `invites …` print. A link is a secret: it appears once, in the output of the command that
// made it, never in a list.

const orgLabel = (org: OrganizationRef) => `${org.name} (${org.slug})`;
const minute = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "-");

type MailOutcome = { mail: "sent" | "mail off" | "failed"; mail_error: string | null; email: string };

function mailLine({ mail, mail_error, email }: MailOutcome): string {
  if (mail === "sent") return `Also e-mailed to ${email}.`;
  if (mail === "failed") return `Could not e-mail it (${mail_error ?? "unknown error"}): send the link yourself.`;
  return "Mail is off (no SMTP_URL): send the link yourself.";
}

/** The link's one display: the link on stdout, what to do with it on stderr. */
function linkOutput(headline: string, link: string, expiresAt: string, mail: MailOutcome, extra: string[] = []) {
  return {
    stdout: [headline, "", `  ${link}`, "", ...extra, `  expires  ${minute(expiresAt)}`].join("\n"),
    stderr: [
      "Copy the link now: it is shown only this once, works once, and only the hash of its token is stored.",
      mailLine(mail),
    ].join("\n"),
  };
}

type CreatedOrganization = CommandResult<"orgs.create">;

/** `--json`: the organization, the founder's roster entry, the link and when it expires. */
export function createdOrganizationJson(result: CreatedOrganization): string {
  const { organization, member, invitation, link, expires_at, mail, mail_error } = result;
  return printableJson({ organization, member, invitation_id: invitation.id, link, expires_at, mail, mail_error });
}

export function formatCreatedOrganization(result: CreatedOrganization) {
  return linkOutput(
    `Created ${orgLabel(result.organization)} with ${result.member.name} <${result.member.email}> as its founder.\nThe founder sets their password at this link:`,
    result.link,
    result.expires_at,
    { mail: result.mail, mail_error: result.mail_error, email: result.member.email },
    [`  id       ${result.organization.id}`],
  );
}

type CreatedInvitation = CommandResult<"invites.create">;

export function createdInvitationJson(result: CreatedInvitation): string {
  const { organization, ...rest } = result;
  return printableJson({ ...rest, organization });
}

export function formatCreatedInvitation(result: CreatedInvitation) {
  const what = result.resets_password
    ? `Made a password reset link for ${result.email} (${result.role}) in ${orgLabel(result.organization)}:`
    : `Invited ${result.email} as a ${result.role} to ${orgLabel(result.organization)}:`;
  return linkOutput(what, result.link, result.expires_at, result, [`  id       ${result.id}`]);
}

type InvitationList = CommandResult<"invites.list">;

export function invitationListJson(result: InvitationList): string {
  return printableJson(result.invitations, 2);
}

export function formatInvitationList(result: InvitationList): string {
  if (result.invitations.length === 0) {
    return `No invitations in ${orgLabel(result.organization)}. Make one with:\n  sundown invites create --org ${result.organization.slug} --email <email> --role member`;
  }
  const rows = result.invitations.map((i) => [
    i.id,
    i.email,
    i.role,
    i.resets_password ? "reset" : "invite",
    i.status,
    minute(i.expires_at),
    i.created_by,
  ]);
  const headers = ["ID", "EMAIL", "ROLE", "KIND", "STATUS", "EXPIRES", "CREATED BY"];
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c]!)));
  return [headers, ...rows].map((cells) => line(cells).join("  ")).join("\n");
}

export function formatRevokedInvitation(result: CommandResult<"invites.revoke">): string {
  const link = `the link for ${result.email} (${result.role}, id ${result.id}) in ${orgLabel(result.organization)}`;
  return result.changed ? `Revoked ${link}.` : `Left ${link} as it was: it is already ${result.status}.`;
}
