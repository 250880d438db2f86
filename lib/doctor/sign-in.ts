import path from "node:path";
import { EnvError, signInUrl, type Env } from "@/lib/env";
import { fail, pass, warn, type Check, type Verdict } from "./check";
import { maskUrl } from "./mask";

// The public URL and the session secret, judged as `npm start` will use them. Which URL sign-in takes, and
// that production needs one, is lib/env.ts's signInUrl(); this adds what only shows once both URLs are
// seen together: that they agree, and that they are https beyond this machine.

const isProduction = (env: Env) => env.NODE_ENV === "production";

function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

export function publicUrlVerdict(env: Env): Verdict {
  let signIn: string;
  try {
    signIn = signInUrl(env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return fail("neither SUNDOWN_URL nor NEXTAUTH_URL is set", error.message.replace(/^Sundown: /, ""));
  }
  const { SUNDOWN_URL, NEXTAUTH_URL } = env;
  if (SUNDOWN_URL && NEXTAUTH_URL && new URL(SUNDOWN_URL).origin !== new URL(NEXTAUTH_URL).origin) {
    const origin = new URL(SUNDOWN_URL).origin;
    return fail(
      `NEXTAUTH_URL (${new URL(NEXTAUTH_URL).origin}) and SUNDOWN_URL (${origin}) are different origins: sign-in ` +
        "would send people to one while the API's links point to the other",
      `Set NEXTAUTH_URL to ${origin}, or unset it: sign-in then uses SUNDOWN_URL's origin.`,
    );
  }
  // Masked as every URL the doctor prints: parseEnv refuses a password here, but the verdict does not rely on it.
  const links = SUNDOWN_URL
    ? `links to ${maskUrl(SUNDOWN_URL)}`
    : "links to the Host each request names (SUNDOWN_URL unset)";
  const detail = `sign-in at ${maskUrl(signIn)}, ${links}`;
  if (isProduction(env)) {
    const plain = (
      [
        ["SUNDOWN_URL", SUNDOWN_URL],
        ["NEXTAUTH_URL", NEXTAUTH_URL],
      ] as const
    ).find(([, value]) => value && new URL(value).protocol === "http:" && !isLoopback(new URL(value)));
    if (plain) {
      return warn(
        `${detail}; ${plain[0]} is plain http beyond this machine, so sessions and API keys would cross the network unencrypted`,
        `Serve Sundown over https (a TLS-terminating proxy will do) and set ${plain[0]} to its https:// address.`,
      );
    }
  }
  return pass(detail);
}

export function sessionSecretVerdict(env: Env): Verdict {
  // The value is never shown, not even its length.
  if (env.NEXTAUTH_SECRET) return pass("NEXTAUTH_SECRET is set");
  if (env.dataDir.startsWith("memory://")) {
    const detail = "NEXTAUTH_SECRET is unset and the data directory is in memory: a new secret at each start";
    const fix = "Set NEXTAUTH_SECRET (e.g. `openssl rand -base64 32`) so sessions survive a restart.";
    return isProduction(env) ? warn(`${detail}, so sessions end whenever the server restarts`, fix) : pass(detail);
  }
  // Production with DATABASE_URL and no secret never gets here: parseEnv refuses it (the environment check).
  return pass(`generated on first start and kept in ${path.join(env.dataDir, "auth-secret")} (NEXTAUTH_SECRET unset)`);
}

export const SIGN_IN_CHECKS: Check[] = [
  { name: "public-url", run: ({ env }) => publicUrlVerdict(env) },
  { name: "session-secret", run: ({ env }) => sessionSecretVerdict(env) },
];
