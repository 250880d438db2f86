import { sendCommand } from "@/lib/cli/execute";
import { readLock } from "@/lib/db/lock";
import type { Statement } from "@/lib/db/sql";
import { verifyMail } from "@/lib/mail/send";
import { errorMessage, fail, pass, warn, type Check, type DoctorContext, type Verdict } from "./check";
import { maskUrl } from "./mask";

// Whether anyone can use this Sundown (issue 36): an organization with an active founder who can sign in, else the
// command that makes one; and, when SMTP_URL is set, whether the mail server takes messages (and, with
// `--mail-to`, a test message sent).

const CREATE = 'npx sundown orgs create --slug <slug> --name "<name>" --founder-email <you@example.com>';

const FOUNDERS: Statement = {
  name: "doctor-founders",
  text: `SELECT o.slug, count(u.id)::int AS founders
         FROM organizations o
         LEFT JOIN members m ON m.organization_id = o.id AND m.role = 'founder' AND m.active
         LEFT JOIN users u ON u.member_id = m.id
         GROUP BY o.slug ORDER BY o.slug`,
};

/** Organizations and how many active founders of each can sign in: the verdict on them. */
export function foundersVerdict(rows: { slug: string; founders: number }[]): Verdict {
  if (rows.length === 0) {
    // A state, not a misconfiguration: a warning, so that a new deployment's doctor still passes.
    return warn("no organization yet: nobody can sign in", `Create the first, with its founder's link: ${CREATE}`);
  }
  const without = rows.filter((r) => r.founders === 0).map((r) => r.slug);
  const withFounder = rows.length - without.length;
  if (withFounder === 0) {
    return warn(
      `${rows.length} organization${rows.length === 1 ? "" : "s"}, none with an active founder who can sign in`,
      `Send a founder a link: npx sundown invites create --org ${without[0]} --email <founder's address> --role founder`,
    );
  }
  const detail = `${withFounder} of ${rows.length} organization${rows.length === 1 ? "" : "s"} with an active founder who can sign in`;
  return without.length === 0
    ? pass(detail)
    : warn(
        `${detail}; none in ${without.join(", ")}`,
        `Send a founder a link: npx sundown invites create --org ${without[0]} --email <address> --role founder`,
      );
}

const founders: Check = {
  name: "founders",
  bound: ({ env }) => ({ ms: 2 * env.DATABASE_TIMEOUT_MS + 5_000, waitsOn: "the database" }),
  async run({ database }: DoctorContext) {
    if (database.kind === "postgres") {
      try {
        await database.reach();
      } catch {
        return null; // The database check has said why.
      }
      try {
        return foundersVerdict(await database.handle.sql.rows(FOUNDERS, []));
      } catch (error) {
        // Not migrated yet: the migrations check says what to run.
        if ((error as { code?: string }).code === "42P01") return null;
        throw error;
      }
    }
    // The embedded database is one process's: asked through the running server, if there is one.
    const holder = database.dataDir.startsWith("memory://") ? undefined : readLock(database.dataDir);
    if (holder?.role !== "server" || !holder.socket) return null;
    const answer = await sendCommand(holder.socket, "orgs.founders", {});
    if (!answer?.ok) return null;
    return foundersVerdict(answer.result as { slug: string; founders: number }[]);
  },
};

const mail: Check = {
  name: "mail",
  bound: () => ({ ms: 25_000, waitsOn: "the mail server at SMTP_URL" }),
  async run({ env, mailTo }: DoctorContext) {
    if (!env.SMTP_URL) {
      return mailTo
        ? fail("off: SMTP_URL is not set, so no test message was sent", "Set SMTP_URL, e.g. smtp://user:pass@host:587.")
        : pass("off (no SMTP_URL): one-time links are shown to copy, not e-mailed");
    }
    const where = maskUrl(env.SMTP_URL);
    try {
      await verifyMail(env, mailTo);
    } catch (error) {
      return fail(
        `${where}: ${errorMessage(error)}`,
        "Check SMTP_URL (host, port, user and password) and SMTP_FROM, and that this machine may reach the mail server.",
      );
    }
    return pass(mailTo ? `${where}: a test message was sent to ${mailTo}` : `${where}: the server accepts a sign-in`);
  },
};

export const PEOPLE_CHECKS: readonly Check[] = [founders, mail];
