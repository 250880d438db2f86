import { createHash } from "node:crypto";

// @upstash/ratelimit's Lua scripts begin with `#!lua flags=allow-key-locking`. Upstash accepts that
// flag; Redis 7.0 refuses any script whose shebang names a flag it does not know ("Unexpected flag in
// script shebang"). Without the line, Redis runs the script with its default flags, which is what the
// script needs on a single node.
const SHEBANG = /^#![^\n]*\n/;

export function stripLuaShebang(script: string): string {
  return script.replace(SHEBANG, "");
}

/** The SHA1 by which Redis names a loaded script (EVALSHA, SCRIPT LOAD). */
export function scriptSha(script: string): string {
  return createHash("sha1").update(script).digest("hex");
}

/**
 * Maps the SHA1 a client computed on a script as written to the SHA1 of the script Redis actually
 * loaded (without its shebang). An unknown SHA is answered with NOSCRIPT, which makes
 * @upstash/ratelimit fall back to EVAL with the full text, where the mapping is learnt.
 */
export class ShebangFreeScripts {
  private readonly loaded = new Map<string, string>();

  /** The script Redis should run and its SHA, remembering the client's SHA for later EVALSHA calls. */
  prepare(script: string): { script: string; sha: string } {
    const stripped = stripLuaShebang(script);
    const sha = scriptSha(stripped);
    this.loaded.set(scriptSha(script), sha);
    return { script: stripped, sha };
  }

  /** The SHA to send to Redis for a client's SHA, or undefined when the script has not been seen. */
  translate(clientSha: string): string | undefined {
    return this.loaded.get(clientSha.toLowerCase());
  }
}

export const NOSCRIPT_MESSAGE = "NOSCRIPT No matching script. Please use EVAL.";
