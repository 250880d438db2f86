import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server on a free port of this machine, for tests of what Sundown e-mails (issue 36): it accepts every
// message and keeps it, so a test reads what a person would receive. No TLS, no authentication: SMTP_URL points at
// smtp://127.0.0.1:<port>.

export interface CaughtMessage {
  from: string;
  to: string[];
  /** The raw message (headers and body) as it arrived. */
  raw: string;
}

export interface RunningSmtpServer {
  url: string;
  messages: CaughtMessage[];
  /** Resolves with the first message to `to` (now or when it arrives), or rejects after `timeoutMs`. */
  messageTo(to: string, timeoutMs?: number): Promise<CaughtMessage>;
  stop(): Promise<void>;
}

export async function startSmtpServer({ refuse = false }: { refuse?: boolean } = {}): Promise<RunningSmtpServer> {
  const messages: CaughtMessage[] = [];
  const waiting: { to: string; resolve: (m: CaughtMessage) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      // A server that refuses every recipient: the send fails, as with a wrong relay.
      callback(refuse ? Object.assign(new Error("550 relay refused"), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        const message = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        };
        messages.push(message);
        for (const w of waiting.filter((w) => message.to.includes(w.to))) w.resolve(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    messageTo(to, timeoutMs = 15_000) {
      const found = messages.find((m) => m.to.includes(to));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({ to, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message's body with quoted-printable soft line breaks undone, so a long link reads whole. */
export function messageText(message: CaughtMessage): string {
  return message.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}
