import type { MemberRole } from "@/lib/schemas/team";
import { sendMail, type SendOutcome } from "./send";

// The message that carries a one-time link: an invitation, or a password reset. Plain text, with the link on a line
// of its own and when it stops working, so a person reading it on any client knows how long they have.

export interface LinkMail {
  to: string;
  link: string;
  expiresAt: Date;
  organizationName: string;
  role: MemberRole;
  resetsPassword: boolean;
}

function expiry(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Sends a link's message; best effort (see sendMail). */
export function sendLinkMail(mail: LinkMail): Promise<SendOutcome> {
  const subject = mail.resetsPassword
    ? `Set a new Sundown password for ${mail.organizationName}`
    : `You are invited to ${mail.organizationName} on Sundown`;
  const opening = mail.resetsPassword
    ? `Someone asked to set a new password for your Sundown sign-in at ${mail.organizationName}.`
    : `You are invited to join ${mail.organizationName} on Sundown as a ${mail.role}.`;
  const text = [
    opening,
    "",
    "Open this link to set your password; it works once:",
    "",
    mail.link,
    "",
    `The link expires on ${expiry(mail.expiresAt)} (7 days after it was made).`,
    mail.resetsPassword
      ? "If you did not ask for this, ignore this message: your password stays as it is."
      : "If you did not expect this, ignore this message.",
  ].join("\n");
  return sendMail({ to: mail.to, subject, text });
}
