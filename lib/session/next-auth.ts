import { randomBytes, randomUUID } from "node:crypto";
import NextAuth, { type NextAuthOptions, type User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { resolveAuthSecret } from "@/lib/auth/server-secret";
import { endSession, isSessionEnded } from "@/lib/data/ended-sessions";
import { findSessionUser, findSessionUserByEmail, findUserForSignIn, type SessionUser } from "@/lib/data/users";
import type { MemberRole } from "@/lib/schemas/team";
import { getEnv, signInUrl, type Env } from "@/lib/env";
import { log } from "@/lib/log";
import { accountIdentifier } from "@/lib/ratelimit/account-identifier";
import { clientAddress } from "@/lib/ratelimit/client-address";
import type { PolicyLimiter } from "@/lib/ratelimit/limiter";
import { createRateLimiter } from "@/lib/ratelimit/policies";
import { callbackUrlOn } from "@/lib/session/callback-path";
import { authorizeInvitation } from "@/lib/session/invitation-sign-in";
import { completeHeldLink } from "@/lib/session/link-with-provider";

/** What the session cookie (a JWT) carries besides name and email. Authorization re-reads role and org from the database. */
interface SessionClaims {
  userId: string;
  memberId: string;
  organizationId: string;
  role: MemberRole;
}

declare module "next-auth" {
  interface Session {
    user: Partial<SessionClaims> & { name?: string | null; email?: string | null };
  }
  interface User extends Partial<SessionClaims> {}
}

/**
 * Set once at sign-in and kept when next-auth re-issues the cookie (its own `jti` changes every time):
 * sign-out ends the session by this id, and it never lives past signedInAt + SESSION_MAX_AGE_SECONDS.
 */
export interface SessionIdentity {
  sessionId: string;
  /** Seconds since the epoch. */
  signedInAt: number;
}

declare module "next-auth/jwt" {
  interface JWT extends Partial<SessionClaims>, Partial<SessionIdentity> {}
}

/** Error code the sign-in form turns into "too many attempts"; next-auth passes it through as `?error=`. */
export const SIGN_IN_RATE_LIMITED = "RateLimited";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

// Budgets count FAILED attempts only, keyed so that no one can spend the owner's: per account and
// address pair (guessing one account from one place), and per address across accounts (credential
// stuffing). There is deliberately no per-account budget, which any address could exhaust to lock the
// owner out. Guessing spread over many addresses is not stopped here; passwords are scrypt-hashed.
const SIGN_IN_WINDOW_SECONDS = 15 * 60;
const SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
const SIGN_IN_FAILURES_PER_ADDRESS = 30;
// Without a known address every such attempt shares one budget: guessing stays bounded.
const UNKNOWN_ADDRESS = "unknown";

let limiters: { pair: PolicyLimiter; address: PolicyLimiter } | undefined;

function signInLimiters() {
  limiters ??= {
    pair: createRateLimiter({
      prefix: "signin:fail:pair",
      limit: SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
      windowSeconds: SIGN_IN_WINDOW_SECONDS,
    }),
    address: createRateLimiter({
      prefix: "signin:fail:ip",
      limit: SIGN_IN_FAILURES_PER_ADDRESS,
      windowSeconds: SIGN_IN_WINDOW_SECONDS,
    }),
  };
  return limiters;
}

/** The budgets one sign-in attempt draws on: its account from its address, and its address. */
function signInBudgets(
  email: string,
  headers: HeaderBag,
): { limiter: PolicyLimiter; identifier: string; name: string }[] {
  const { pair, address } = signInLimiters();
  const from = clientAddress(toHeaders(headers)) ?? UNKNOWN_ADDRESS;
  return [
    {
      limiter: pair,
      identifier: `${from}|${accountIdentifier(email)}`,
      name: "account and address",
    },
    { limiter: address, identifier: from, name: "address" },
  ];
}

type HeaderBag = Record<string, string | string[] | undefined> | Headers | undefined;

function toHeaders(bag: HeaderBag): Headers {
  if (bag instanceof Headers) return bag;
  const headers = new Headers();
  for (const [name, value] of Object.entries(bag ?? {})) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return headers;
}

const credentialsInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
  password: z.string().min(1).max(1024),
});

// Unknown emails still pay for one scrypt run, so response time does not reveal which accounts exist.
let dummyHash: Promise<string> | undefined;

/**
 * The user a session is issued for, or null. Throws SIGN_IN_RATE_LIMITED when a failure budget is spent,
 * before the password is checked, so a refused attempt reveals nothing about the password.
 *
 * Each attempt reserves a failure in every budget before the password is checked, and gives it back
 * unless the attempt fails: a check made before any failure was recorded would let a burst of parallel
 * guesses all pass it, and successes (or attempts refused unchecked) must never count.
 */
export async function authorizeCredentials(credentials: unknown, headers: HeaderBag): Promise<User | null> {
  const parsed = credentialsInput.safeParse(credentials);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const budgets = signInBudgets(email, headers);
  const reserved = await Promise.all(budgets.map((b) => b.limiter.limit(b.identifier)));
  const giveBack = () => Promise.all(budgets.map((b, i) => b.limiter.release(b.identifier, reserved[i])));
  const spent = reserved.findIndex((r) => !r.success);
  if (spent >= 0) {
    await giveBack();
    log("warn", "sign-in rate limited", { by: budgets[spent].name });
    throw new Error(SIGN_IN_RATE_LIMITED);
  }
  let user: User | null;
  try {
    user = await verifyCredentials(email, password);
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (user) await giveBack();
  return user;
}

async function verifyCredentials(email: string, password: string): Promise<User | null> {
  const row = await findUserForSignIn(email);
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  const valid = await verifyPassword(password, row?.passwordHash ?? (await dummyHash));
  if (!row || !valid || !row.member.active) return null;
  return {
    id: row.id,
    name: row.member.name,
    email: row.email,
    userId: row.id,
    memberId: row.member.id,
    organizationId: row.member.organization.id,
    role: row.member.role,
  };
}

/**
 * next-auth 4 reads its public URL from process.env only, and without NEXTAUTH_URL it would build sign-in
 * links and redirects from the request's (forgeable) Host header. So it always gets the configured one.
 */
function configureAuthUrl(env: Env = getEnv()): void {
  process.env.NEXTAUTH_URL = signInUrl(env);
}

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where the sign-in page opened at `host` moves to in development, if anywhere. Sign-in lives at one origin
 * (by default http://localhost:$PORT): next-auth's cookies and redirects belong to it, and `next dev` serves its
 * scripts to localhost only. So a page opened at another name of this machine on the same port (127.0.0.1, which
 * the discovery documents print, or [::1]) goes there first. Only between loopback names, so no Host header
 * leads anywhere else; never in production, where only the configured URL counts.
 */
export function developmentSignInOrigin(host: string | null, env: Env = getEnv()): string | undefined {
  if (env.NODE_ENV === "production" || !host || !URL.canParse(`http://${host}`)) return undefined;
  const home = new URL(signInUrl(env));
  const addressed = new URL(`http://${host}`);
  const elsewhereOnThisMachine =
    LOOPBACK_HOSTNAMES.has(home.hostname) &&
    LOOPBACK_HOSTNAMES.has(addressed.hostname) &&
    addressed.hostname !== home.hostname &&
    addressed.port === home.port;
  return elsewhereOnThisMachine ? home.origin : undefined;
}

function newSession(): SessionIdentity {
  return { sessionId: randomUUID(), signedInAt: Math.floor(Date.now() / 1000) };
}

/** Whether the session a token names has neither ended (signed out) nor expired; false when the database cannot say. */
async function isLiveSession({ sessionId, signedInAt }: { sessionId?: string; signedInAt?: number }): Promise<boolean> {
  if (!sessionId || signedInAt === undefined) return false;
  if (sessionExpiry({ sessionId, signedInAt }) <= new Date()) return false;
  return !(await isSessionEnded(sessionId).catch(() => true));
}

/**
 * The person a token's live session belongs to, as the database says now: the session endpoint answers what the pages
 * and actions see (lib/session/session.ts), so a demotion shows at once and a deactivated member is no one. Null
 * also when the database cannot say.
 */
async function currentSessionUser(token: JWT): Promise<SessionUser | null> {
  if (!token.userId) return null;
  const [live, user] = await Promise.all([isLiveSession(token), findSessionUser(token.userId).catch(() => null)]);
  return live ? user : null;
}

/** When a session ends by itself, whatever next-auth's rolling cookie expiry says. */
export function sessionExpiry(identity: SessionIdentity): Date {
  return new Date((identity.signedInAt + SESSION_MAX_AGE_SECONDS) * 1000);
}

/** OAuth sign-in only finds existing Sundown users, by an email address the provider vouches for. */
function oauthEmail(provider: string, profile: unknown, user: User): string | null {
  const p = (profile ?? {}) as { email?: unknown; email_verified?: unknown };
  if (provider === "google" && p.email_verified !== true) return null;
  const email = typeof p.email === "string" ? p.email : user.email;
  return email ? email.trim().toLowerCase() : null;
}

function claimsOf(user: SessionUser): SessionClaims {
  return { userId: user.userId, memberId: user.memberId, organizationId: user.organization.id, role: user.role };
}

function buildProviders(env: Env): NextAuthOptions["providers"] {
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (credentials, request) => authorizeCredentials(credentials, request?.headers),
    }),
    // A one-time link's page (app/invite/[token]) posts here: the new password sets up the sign-in and signs in.
    CredentialsProvider({
      id: "invitation",
      name: "One-time link",
      credentials: { token: { type: "text" }, password: { type: "password" }, name: { type: "text" } },
      authorize: (credentials) => authorizeInvitation(credentials),
    }),
  ];
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET }));
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.push(GoogleProvider({ clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }));
  }
  return providers;
}

/** The OAuth providers switched on by the environment, for the sign-in page. */
export function oauthProviders(env: Env = getEnv()): { id: "github" | "google"; name: string }[] {
  return [
    ...(env.GITHUB_ID && env.GITHUB_SECRET ? [{ id: "github" as const, name: "GitHub" }] : []),
    ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? [{ id: "google" as const, name: "Google" }] : []),
  ];
}

function buildAuthOptions(env: Env): NextAuthOptions {
  configureAuthUrl(env);
  return {
    secret: resolveAuthSecret(env),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // Cookies: next-auth's defaults are HTTP-only and SameSite=Lax, and Secure with the __Secure- prefix
    // whenever the public URL is https.
    pages: { signIn: "/signin", error: "/signin" },
    providers: buildProviders(env),
    callbacks: {
      async signIn({ user, account, profile }) {
        if (!account || account.type === "credentials") return true;
        const email = oauthEmail(account.provider, profile, user);
        if (!email) return false;
        // Someone who signs in already; else someone completing a one-time link with this very address.
        return Boolean(await findSessionUserByEmail(email)) || (await completeHeldLink(email));
      },
      async jwt({ token, user, account }) {
        if (!user || !account) return token;
        if (account.type === "credentials") {
          const { userId, memberId, organizationId, role } = user;
          return { ...token, sub: userId, userId, memberId, organizationId, role, ...newSession() };
        }
        const found = await findSessionUserByEmail(oauthEmail(account.provider, undefined, user) ?? "");
        if (!found) return token;
        return {
          ...token,
          sub: found.userId,
          name: found.name,
          email: found.email,
          ...claimsOf(found),
          ...newSession(),
        };
      },
      // Only paths on the configured origin; anything else lands on the default page (no open redirect).
      redirect: ({ url, baseUrl }) => callbackUrlOn(baseUrl, url),
      // The session endpoint answers the browser: no email address in it (DESIGN: stored for sign-in only). A cookie
      // whose session was signed out (or is past its 8 hours, or carries no session id), or whose member was
      // deactivated, describes no one: the endpoint answers `{}`, as for no cookie at all, and so it does when the
      // database cannot say. Name and role are the database's, not the cookie's.
      async session({ session, token }) {
        const user = await currentSessionUser(token);
        if (!user) return {} as typeof session;
        session.user = { name: user.name, ...claimsOf(user) };
        return session;
      },
    },
    events: {
      // The cookie is deleted in this browser; recording the session as ended refuses every other copy.
      async signOut({ token }) {
        const { sessionId, userId, signedInAt } = token ?? {};
        if (!sessionId || !userId || signedInAt === undefined) return;
        await endSession({ sessionId, userId, expiresAt: sessionExpiry({ sessionId, signedInAt }) });
        log("info", "session ended", { user_id: userId });
      },
    },
    logger: {
      error: (code, metadata) =>
        log("error", "next-auth error", { code, error: metadata instanceof Error ? metadata.message : undefined }),
      warn: (code) => log("warn", "next-auth warning", { code }),
      debug: () => {},
    },
  };
}

let cachedOptions: NextAuthOptions | undefined;

/** The one next-auth configuration, built on first use (not at import, so `next build` touches no secret). */
export function getAuthOptions(): NextAuthOptions {
  cachedOptions ??= buildAuthOptions(getEnv());
  return cachedOptions;
}

/**
 * next-auth's CSRF token for the browser behind the current request, for a form that posts to next-auth
 * without JavaScript (the sign-in form). next-auth checks such a POST by double submit: the token in the body
 * must match its signed CSRF cookie. The token comes from next-auth's own `GET /api/auth/csrf`, asked
 * in-process with this request's cookies: the browser's own token, or a new one and the cookie it needs.
 * A page cannot set cookies, so the proxy passes its response as `issueTo` to receive that cookie; set through
 * Next's `cookies`, it is also what the page's own call reads later in the same request.
 * (next-auth/react's getCsrfToken would fetch the server's own public URL and lose the cookie; minting the cookie
 * here would copy next-auth's private format; a server action would re-implement its credentials callback.)
 */
export async function nextAuthCsrfToken(issueTo?: NextResponse): Promise<string> {
  const answer: Response = await NextAuth(
    // Only the path matters: next-auth reads cookies and headers from the current request (next/headers).
    new NextRequest(new URL("/api/auth/csrf", "http://localhost")),
    { params: { nextauth: ["csrf"] } },
    getAuthOptions(),
  );
  for (const cookie of new NextResponse(null, answer).cookies.getAll()) issueTo?.cookies.set(cookie);
  const { csrfToken } = (await answer.json()) as { csrfToken: string };
  return csrfToken;
}
