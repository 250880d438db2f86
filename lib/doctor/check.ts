import type { Env } from "@/lib/env";
import type { DatabaseTarget, StoreTarget } from "./targets";

// What `sundown doctor` reports: one line per check, each passing, warning or failing, the last two with
// the fix. A check is data (its name, what it waits on and for how long) plus one function; run.ts runs
// them all, in order, each within its bound.

export type CheckStatus = "pass" | "warn" | "fail";

export interface Verdict {
  status: CheckStatus;
  /** What was found, in one line. Never a key or a password: URLs are printed masked. */
  detail: string;
  /** What to do about it, for a warning or a failure. */
  fix?: string;
}

export interface CheckResult extends Verdict {
  /** Stable, for scripts reading --json: "database", "rate-limit-store"… */
  name: string;
}

export interface DoctorReport {
  /** False when any check failed; warnings alone leave it true. */
  ok: boolean;
  checks: CheckResult[];
}

export const pass = (detail: string): Verdict => ({ status: "pass", detail });
export const warn = (detail: string, fix: string): Verdict => ({ status: "warn", detail, fix });
export const fail = (detail: string, fix: string): Verdict => ({ status: "fail", detail, fix });

/** What the checks share: the environment and the connections, opened once and reused by every check. */
export interface DoctorContext {
  env: Env;
  database: DatabaseTarget;
  store: StoreTarget;
  /** `sundown doctor --mail-to <address>`: where the mail check sends a test message. */
  mailTo?: string;
}

export interface Check {
  name: string;
  /**
   * How long it may take and what it waits on, named in the failure when that does not answer in time, so a
   * hung database or Redis cannot hang the doctor. Absent for checks that do no I/O.
   */
  bound?(context: DoctorContext): { ms: number; waitsOn: string };
  /**
   * The verdict, or null where the check does not apply: Redis's clock with the in-memory store, or a
   * statement timeout when the database check already reported PostgreSQL unreachable.
   */
  run(context: DoctorContext): Promise<Verdict | null> | Verdict | null;
}

/** An error's message for a detail line, with its cause's (fetch's "fetch failed" says nothing on its own). */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's AggregateError for a refused connection to every address has no message, only a code.
  const own = (error.message || String((error as { code?: unknown }).code ?? error.name)).replace(/\.$/, "");
  return error.cause instanceof Error ? `${own} (${errorMessage(error.cause)})` : own;
}
