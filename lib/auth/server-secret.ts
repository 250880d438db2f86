import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv, type Env } from "@/lib/env";
import { log } from "@/lib/log";

// The server's one secret: it signs sessions (next-auth) and the API's page cursors (lib/operations/cursor-signature.ts).

/**
 * The server secret: NEXTAUTH_SECRET, else (embedded default) one generated on first start and kept in
 * <dataDir>/auth-secret (mode 0600), so sessions survive restarts with zero configuration.
 */
export function resolveAuthSecret(env: Env = getEnv()): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  if (env.dataDir.startsWith("memory://")) {
    memorySecret ??= randomBytes(32).toString("base64url");
    return memorySecret;
  }
  const file = path.join(env.dataDir, "auth-secret");
  const existing = readSecretFile(file);
  if (existing) return existing;
  mkdirSync(env.dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
    log("info", "generated a session secret", { file });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const written = readSecretFile(file);
  if (!written) throw new Error(`Sundown: could not read the session secret in ${file}`);
  return written;
}

let memorySecret: string | undefined;

function readSecretFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
