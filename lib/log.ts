import { getEnv } from "@/lib/env";

// One JSON object per line on stdout/stderr, so any log drain can parse it. Never pass a key or a
// password here: fields are written as given.

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = Exclude<keyof typeof LEVELS, "silent">;

function threshold(): number {
  try {
    return LEVELS[getEnv().SUNDOWN_LOG_LEVEL];
  } catch {
    return LEVELS.info;
  }
}

export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}
