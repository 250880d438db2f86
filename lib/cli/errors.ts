import { EnvError } from "@/lib/env";

// Errors a CLI command reports to the operator as a plain message, never a stack trace.
// Exit codes: 1 the command failed, 2 the command line was wrong.

export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = "CommandError";
  }
}

export class UsageError extends CommandError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

export interface CommandFailure {
  message: string;
  exitCode: 1 | 2;
}

/** What the operator reads for any error: a message without stack or driver noise. */
export function toCommandFailure(error: unknown): CommandFailure {
  if (error instanceof CommandError) return { message: error.message, exitCode: error.exitCode };
  // Already written for the operator, line by line.
  if (error instanceof EnvError || (error instanceof Error && error.name === "ImportError")) {
    return { message: error.message, exitCode: 1 };
  }
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  if (code === "P2021" || /(relation|table) .* does not exist/i.test(text)) {
    return { message: "The database has no Sundown tables yet: run `npx sundown db migrate` first.", exitCode: 1 };
  }
  if (
    code === "P1001" ||
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    /ECONNREFUSED|ENOTFOUND|connect ETIMEDOUT|Can't reach database/.test(text)
  ) {
    const where = /at (\S+:\d+)/.exec(text)?.[1];
    return {
      message: `Cannot reach the database at DATABASE_URL${where ? ` (${where})` : ""}: is PostgreSQL running and the URL right?`,
      exitCode: 1,
    };
  }
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return { message: lines.at(-1) ?? "unexpected error", exitCode: 1 };
}
