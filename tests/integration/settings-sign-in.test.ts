import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import {
  authorizeCredentials,
  developmentSignInOrigin,
  getAuthOptions,
  SESSION_MAX_AGE_SECONDS,
  SIGN_IN_RATE_LIMITED,
} from "@/lib/session/next-auth";
import { resolveAuthSecret } from "@/lib/auth/server-secret";
import { sessionUserFromCookies } from "@/lib/session/session";
import { endSession } from "@/lib/data/ended-sessions";
import { findSessionUser, findSessionUserByEmail } from "@/lib/data/users";
import { parseEnv } from "@/lib/env";
import { PEER_ADDRESS_HEADER } from "@/lib/ratelimit/client-address";

const PASSWORD = "sundown-demo";
let addressCounter = 0;
/** A fresh documentation address (RFC 5737) per call, so per-address budgets never meet. */
const freshAddress = () => ({ [PEER_ADDRESS_HEADER]: `198.51.100.${(addressCounter++ % 250) + 1}` });

/** A random private address: counters in a shared store (REDIS_URL) must not carry over between runs. */
function randomPrivateAddress() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return { [PEER_ADDRESS_HEADER]: `10.${octet()}.${octet()}.${octet()}` };
}

// Opening (and on first use seeding) the database can take a while on a busy machine: not part of any test.
beforeAll(async () => {
  await getDb();
});

describe("credentials sign-in", () => {
  it("signs in a demo founder with the claims the session carries", async () => {
    const user = await authorizeCredentials({ email: " Founder@Acme.Example ", password: PASSWORD }, freshAddress());
    const expected = await findSessionUserByEmail("founder@acme.example");
    expect(user).toEqual({
      id: expected!.userId,
      userId: expected!.userId,
      name: "Maya Chen",
      email: "founder@acme.example",
      memberId: expected!.memberId,
      organizationId: expected!.organization.id,
      role: "founder",
    });
    expect(JSON.stringify(user)).not.toMatch(/scrypt|passwordHash/);
  });

  it.each([
    ["a wrong password", { email: "lead@acme.example", password: "wrong-password" }],
    ["an unknown email", { email: "nobody@acme.example", password: PASSWORD }],
    ["a malformed email", { email: "not an email", password: PASSWORD }],
    ["an empty password", { email: "lead@acme.example", password: "" }],
    ["no credentials", undefined],
  ])("refuses %s", async (_label, credentials) => {
    expect(await authorizeCredentials(credentials, freshAddress())).toBeNull();
  });

  it("limits failures per account and address, and the owner's address still signs in", async () => {
    const attacker = randomPrivateAddress();
    const guess = () => authorizeCredentials({ email: "founder@acme.example", password: "guess" }, attacker);
    for (let i = 0; i < 10; i++) expect(await guess()).toBeNull();
    await expect(guess()).rejects.toThrow(SIGN_IN_RATE_LIMITED);
    // Refused before the password is checked: the right one from the attacker's address tells nothing.
    await expect(authorizeCredentials({ email: "founder@acme.example", password: PASSWORD }, attacker)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
    // The owner, from their own address, is not locked out.
    expect(
      await authorizeCredentials({ email: "founder@acme.example", password: PASSWORD }, randomPrivateAddress()),
    ).toMatchObject({
      role: "founder",
    });
    // The attacker's address may still try other accounts (up to its own budget).
    expect(await authorizeCredentials({ email: "lead@acme.example", password: "guess" }, attacker)).toBeNull();
  }, 90_000);

  it("never counts successful sign-ins", async () => {
    const office = randomPrivateAddress();
    for (let i = 0; i < 12; i++) {
      expect(await authorizeCredentials({ email: "member@acme.example", password: PASSWORD }, office)).toMatchObject({
        role: "member",
      });
    }
    // Ten failures are still allowed after twelve successes, the eleventh is refused.
    for (let i = 0; i < 10; i++)
      expect(await authorizeCredentials({ email: "member@acme.example", password: "typo" }, office)).toBeNull();
    await expect(authorizeCredentials({ email: "member@acme.example", password: PASSWORD }, office)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
  }, 90_000);

  it("lets a burst of parallel guesses check no more passwords than the budget allows", async () => {
    const attacker = randomPrivateAddress();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, () =>
        authorizeCredentials({ email: "lead@acme.example", password: "guess" }, attacker),
      ),
    );
    const checked = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter(
      (o) => o.status === "rejected" && (o.reason as Error).message === SIGN_IN_RATE_LIMITED,
    );
    expect(checked).toHaveLength(10);
    expect(refused).toHaveLength(6);
    await expect(authorizeCredentials({ email: "lead@acme.example", password: PASSWORD }, attacker)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
  });

  it("limits failures per address, whatever the account", async () => {
    const headers = randomPrivateAddress();
    for (let i = 0; i < 30; i++) {
      expect(await authorizeCredentials({ email: `spray-${i}@example.com`, password: "guess" }, headers)).toBeNull();
    }
    await expect(
      authorizeCredentials({ email: "founder@globex.example", password: PASSWORD }, headers),
    ).rejects.toThrow(SIGN_IN_RATE_LIMITED);
    // Another address is unaffected.
    expect(
      await authorizeCredentials({ email: "founder@globex.example", password: PASSWORD }, freshAddress()),
    ).toMatchObject({
      role: "founder",
    });
  }, 90_000);
});

describe("session claims", () => {
  it("puts user, member, organization and role into the token and the session", async () => {
    const callbacks = getAuthOptions().callbacks!;
    const user = (await authorizeCredentials({ email: "lead@globex.example", password: PASSWORD }, freshAddress()))!;
    const token = await callbacks.jwt!({
      token: { name: user.name, email: user.email, sub: user.id },
      user,
      account: { type: "credentials", provider: "credentials", providerAccountId: user.id },
    } as never);
    expect(token).toMatchObject({
      sub: user.id,
      userId: user.id,
      memberId: user.memberId,
      organizationId: user.organizationId,
      role: "lead",
    });
    const session = await callbacks.session!({ session: { expires: "" }, token } as never);
    expect(session.user).toEqual({
      name: "Lena Fischer",
      userId: user.id,
      memberId: user.memberId,
      organizationId: user.organizationId,
      role: "lead",
    });
    expect(await findSessionUser(token.userId as string)).toMatchObject({
      role: "lead",
      organization: { slug: "globex" },
    });
  });

  it("finds no user for a token that does not name one", async () => {
    expect(await findSessionUser("not-a-uuid")).toBeNull();
    expect(await findSessionUser("00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("the sign-in page's address in development", () => {
  const development = parseEnv({ NODE_ENV: "development", PORT: "3000" });

  it("moves from another loopback name on the same port to http://localhost:$PORT, where sign-in lives", () => {
    expect(developmentSignInOrigin("127.0.0.1:3000", development)).toBe("http://localhost:3000");
    expect(developmentSignInOrigin("[::1]:3000", development)).toBe("http://localhost:3000");
    expect(developmentSignInOrigin("localhost:3000", development)).toBeUndefined();
  });

  it.each([
    ["another port (a forwarded one)", "127.0.0.1:8080", development],
    ["a host that is not this machine", "evil.example:3000", development],
    ["no Host header", null, development],
    ["a Host that is no host", "a b", development],
    [
      "a configured URL on another host",
      "127.0.0.1:3000",
      parseEnv({ NODE_ENV: "development", PORT: "3000", SUNDOWN_URL: "https://sundown.example.com" }),
    ],
    [
      "production, where only the configured URL counts",
      "127.0.0.1:3000",
      parseEnv({ NODE_ENV: "production", PORT: "3000", SUNDOWN_URL: "http://localhost:3000" }),
    ],
  ])("stays put for %s", (_label, host, env) => {
    expect(developmentSignInOrigin(host, env)).toBeUndefined();
  });
});

describe("session secret", () => {
  it("is generated once in the data directory, mode 0600, and reused", () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "sundown-secret-")), "data");
    const env = parseEnv({ NODE_ENV: "test", SUNDOWN_DATA_DIR: dir });
    const first = resolveAuthSecret(env);
    expect(first.length).toBeGreaterThanOrEqual(43);
    const file = path.join(dir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveAuthSecret(env)).toBe(first);
  });

  it("comes from NEXTAUTH_SECRET when set, and writes nothing", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sundown-secret-"));
    const env = parseEnv({ NODE_ENV: "test", SUNDOWN_DATA_DIR: dir, NEXTAUTH_SECRET: "configured-secret-0123456789" });
    expect(resolveAuthSecret(env)).toBe("configured-secret-0123456789");
    expect(() => statSync(path.join(dir, "auth-secret"))).toThrow();
  });
});

describe("sign-out", () => {
  const COOKIE = "next-auth.session-token";

  /** A session cookie as next-auth issues it after a credentials sign-in. */
  async function signedInCookie(email: string, overrides: Record<string, unknown> = {}) {
    const options = getAuthOptions();
    const user = (await authorizeCredentials({ email, password: PASSWORD }, freshAddress()))!;
    const token = await options.callbacks!.jwt!({
      token: { name: user.name, email: user.email, sub: user.id },
      user,
      account: { type: "credentials", provider: "credentials", providerAccountId: user.id },
    } as never);
    const claims = { ...token, ...overrides };
    return { token: claims, cookies: { [COOKIE]: await encode({ token: claims, secret: options.secret! }) } };
  }

  it("ends the signed-out session for every copy of its cookie, and only that session", async () => {
    const first = await signedInCookie("founder@acme.example");
    const second = await signedInCookie("founder@acme.example");
    expect(first.token.sessionId).not.toBe(second.token.sessionId);
    expect(await sessionUserFromCookies(first.cookies)).toMatchObject({
      role: "founder",
      organization: { slug: "acme" },
    });

    await getAuthOptions().events!.signOut!({ token: first.token } as never);

    expect(await sessionUserFromCookies(first.cookies)).toBeNull();
    expect(await sessionUserFromCookies(second.cookies)).toMatchObject({ role: "founder" });
    const row = await (
      await getDb()
    ).endedSession.findUnique({ where: { sessionId: first.token.sessionId as string } });
    expect(row?.expiresAt).toEqual(new Date(((first.token.signedInAt as number) + SESSION_MAX_AGE_SECONDS) * 1000));
  });

  it("refuses a cookie without a session id, and one past its 8 hours however often it was renewed", async () => {
    expect(await sessionUserFromCookies({})).toBeNull();
    const legacy = await signedInCookie("lead@acme.example", { sessionId: undefined, signedInAt: undefined });
    expect(await sessionUserFromCookies(legacy.cookies)).toBeNull();
    const old = await signedInCookie("lead@acme.example", {
      signedInAt: Math.floor(Date.now() / 1000) - SESSION_MAX_AGE_SECONDS - 1,
    });
    expect(await sessionUserFromCookies(old.cookies)).toBeNull();
  });

  it("prunes ended sessions once they would have expired anyway", async () => {
    const db = await getDb();
    const user = (await findSessionUserByEmail("member@globex.example"))!;
    const stale = { sessionId: randomUUID(), userId: user.userId, expiresAt: new Date(Date.now() - 1000) };
    await db.endedSession.create({ data: stale });
    await endSession({ sessionId: randomUUID(), userId: user.userId, expiresAt: new Date(Date.now() + 60_000) });
    expect(await db.endedSession.findUnique({ where: { sessionId: stale.sessionId } })).toBeNull();
  });
});
