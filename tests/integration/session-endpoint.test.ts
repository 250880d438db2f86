import { beforeAll, describe, expect, it } from "vitest";
import { authorizeCredentials, getAuthOptions, SESSION_MAX_AGE_SECONDS } from "@/lib/session/next-auth";
import { endSession } from "@/lib/data/ended-sessions";
import { getDb } from "@/lib/db";
import { PEER_ADDRESS_HEADER } from "@/lib/ratelimit/client-address";

// What next-auth's session endpoint (/api/auth/session) tells the browser for a cookie: the user's name, ids and
// role while its session lives, and nothing at all, as for no cookie, once it was signed out or has expired.

let addressCounter = 0;

/** The token a credentials sign-in puts in the cookie, with `overrides` applied. */
async function signedInToken(email: string, overrides: Record<string, unknown> = {}) {
  const callbacks = getAuthOptions().callbacks!;
  const address = { [PEER_ADDRESS_HEADER]: `203.0.113.${(addressCounter++ % 250) + 1}` };
  const user = (await authorizeCredentials({ email, password: "sundown-demo" }, address))!;
  const token = await callbacks.jwt!({
    token: { name: user.name, email: user.email, sub: user.id },
    user,
    account: { type: "credentials", provider: "credentials", providerAccountId: user.id },
  } as never);
  return { ...token, ...overrides };
}

const sessionFor = (token: Record<string, unknown>) =>
  getAuthOptions().callbacks!.session!({ session: { expires: "2099-01-01T00:00:00.000Z" }, token } as never);

beforeAll(async () => {
  await getDb();
});

describe("the session endpoint", () => {
  it("describes a live session", async () => {
    const token = await signedInToken("lead@acme.example");
    expect(await sessionFor(token)).toMatchObject({ user: { role: "lead", userId: token.userId } });
  });

  it("answers nothing for a signed-out session's cookie", async () => {
    const token = await signedInToken("founder@acme.example");
    await endSession({
      sessionId: token.sessionId as string,
      userId: token.userId as string,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await sessionFor(token)).toEqual({});
  });

  it("answers nothing for a cookie past its 8 hours or without a session id", async () => {
    const old = await signedInToken("lead@acme.example", {
      signedInAt: Math.floor(Date.now() / 1000) - SESSION_MAX_AGE_SECONDS - 1,
    });
    expect(await sessionFor(old)).toEqual({});
    const legacy = await signedInToken("lead@acme.example", { sessionId: undefined });
    expect(await sessionFor(legacy)).toEqual({});
  });
});

describe("the session endpoint follows the database, as the pages do", () => {
  /** Sets a demo member's role and active flag for the length of `work`, then puts them back. */
  async function withMember(email: string, change: { role?: "member"; active?: false }, work: () => Promise<void>) {
    const db = await getDb();
    const { member } = (await db.user.findUnique({
      where: { email },
      select: { member: { select: { id: true, role: true, active: true } } },
    }))!;
    await db.member.update({ where: { id: member.id }, data: change, select: { id: true } });
    try {
      await work();
    } finally {
      await db.member.update({
        where: { id: member.id },
        data: { role: member.role, active: member.active },
        select: { id: true },
      });
    }
  }

  it("shows the role the database holds now, not the one signed in with", async () => {
    const token = await signedInToken("lead@acme.example");
    expect(token.role).toBe("lead");
    await withMember("lead@acme.example", { role: "member" }, async () => {
      expect(await sessionFor(token)).toMatchObject({ user: { role: "member", userId: token.userId } });
    });
    expect(await sessionFor(token)).toMatchObject({ user: { role: "lead" } });
  });

  it("answers nothing for a member deactivated after signing in", async () => {
    const token = await signedInToken("lead@globex.example");
    expect(await sessionFor(token)).toMatchObject({ user: { role: "lead" } });
    await withMember("lead@globex.example", { active: false }, async () => {
      expect(await sessionFor(token)).toEqual({});
    });
  });
});
