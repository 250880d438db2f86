import nodemailer, { type Transporter } from "nodemailer";
import { getEnv, publicUrl, type Env } from "@/lib/env";
import { log } from "@/lib/log";

// E-mail is optional (issue 36): with SMTP_URL set, one-time links are also sent; without it, they are only shown.
// Sending is best effort: a link exists whether or not its message left, and the caller says which.

/** How long a send may take before it counts as failed: a page waits on it. */
const SEND_TIMEOUT_MS = 10_000;

let cached: { url: string; transporter: Transporter } | undefined;

/** Whether links are e-mailed here. */
export function mailEnabled(env: Env = getEnv()): boolean {
  return Boolean(env.SMTP_URL);
}

function transporter(url: string): Transporter {
  if (cached?.url !== url) {
    cached = {
      url,
      transporter: nodemailer.createTransport(url, {
        connectionTimeout: SEND_TIMEOUT_MS,
        greetingTimeout: SEND_TIMEOUT_MS,
        socketTimeout: SEND_TIMEOUT_MS,
      }),
    };
  }
  return cached.transporter;
}

/** The sender: SMTP_FROM, else Sundown at the public URL's host. */
function mailSender(env: Env = getEnv()): string {
  return env.SMTP_FROM ?? `Sundown <sundown@${new URL(publicUrl(env)).hostname}>`;
}

export interface Message {
  to: string;
  subject: string;
  text: string;
}

export type SendOutcome = { sent: true } | { sent: false; reason: "mail off" | "failed"; error?: string };

/** Sends one plain-text message; never throws. The error, when there is one, names no secret (SMTP_URL's password). */
export async function sendMail(message: Message, env: Env = getEnv()): Promise<SendOutcome> {
  if (!env.SMTP_URL) return { sent: false, reason: "mail off" };
  try {
    await transporter(env.SMTP_URL).sendMail({ from: mailSender(env), ...message });
    return { sent: true };
  } catch (error) {
    const text = (error as Error).message.replaceAll(env.SMTP_URL, "SMTP_URL");
    log("warn", "could not send an e-mail", { error: text });
    return { sent: false, reason: "failed", error: text };
  }
}

/**
 * For `sundown doctor`: connects and signs in to the mail server (throws its error), and with `to`, sends a test
 * message there.
 */
export async function verifyMail(env: Env, to?: string): Promise<void> {
  if (!env.SMTP_URL) throw new Error("SMTP_URL is not set");
  const mailer = transporter(env.SMTP_URL);
  await mailer.verify();
  if (to) {
    await mailer.sendMail({
      from: mailSender(env),
      to,
      subject: "Sundown test message",
      text: `This is a test message from sundown doctor: Sundown at ${publicUrl(env)} can e-mail one-time links.`,
    });
  }
}
