import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { listActivity } from "@/lib/data/activity";
import {
  createInvitation,
  inspectInvitation,
  listInvitations,
  revokePendingInvitations,
  completeInvitation,
} from "@/lib/data/invitations";
import { findSessionUserByEmail, type SessionUser } from "@/lib/data/users";
import { runCommand } from "@/lib/cli/commands";
import { runDoctor } from "@/lib/doctor/run";
import { runSetup } from "@/lib/setup/first-organization";
import { requestPasswordReset } from "@/lib/session/forgot-password";
import { authorizeCredentials } from "@/lib/session/next-auth";
import { authorizeInvitation } from "@/lib/session/invitation-sign-in";
import { createInvitationAction, revokeInvitationAction } from "@/lib/settings/invitation-actions";
import { form } from "../helpers/settings-forms";
import { withEnv } from "../helpers/env";
import { messageText, startSmtpServer, type RunningSmtpServer } from "../helpers/smtp-server";

// One-time links (issue 36): `orgs create`, `invites …` and Settings → Team → Invitations, down to the data layer, on
// both databases. Each test works in an organization of its own, made the way an operator makes one, so that no
// demo password changes under the other test files sharing this database.

const STRONG = "violet tractor lunch orbit";
const unique = () => Math.random().toString(36).slice(2, 8);
const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);

/** A new organization with a founder who has used their link: the founder as a session sees them. */
async function newOrganization(): Promise<{ slug: string; founder: SessionUser; founderEmail: string }> {
  const slug = `team-${unique()}`;
  const founderEmail = `founder@${slug}.example`;
  const created = await runCommand("orgs.create", { slug, name: `Team ${slug}`, founderEmail, founderName: "Ada Ode" });
  await authorizeInvitation({ token: tokenOf(created.link), password: STRONG });
  const founder = await findSessionUserByEmail(founderEmail);
  if (!founder) throw new Error("the founder cannot sign in");
  return { slug, founder, founderEmail };
}

/** Someone invited with `role` by `inviter` who has set their password: as a session sees them. */
async function join(inviter: SessionUser, role: "founder" | "lead" | "member", name: string): Promise<SessionUser> {
  const email = `${name.toLowerCase()}-${unique()}@example.com`;
  const state = await createInvitationAction.forUser(inviter, form({ email, role }));
  if (state.status !== "created") throw new Error(`no link: ${JSON.stringify(state)}`);
  await authorizeInvitation({ token: tokenOf(state.link.link), password: STRONG, name });
  return (await findSessionUserByEmail(email))!;
}

const signIn = (email: string, password: string) =>
  authorizeCredentials({ email, password }, { "x-forwarded-for": `203.0.113.${Math.floor(Math.random() * 200)}` });

beforeAll(async () => {
  await getDb();
});

describe("sundown orgs create", () => {
  it("creates the organization, its founder and a link that signs the founder in, shown once", async () => {
    const slug = `org-${unique()}`;
    const founderEmail = `Maya@${slug}.example`;
    const result = await runCommand("orgs.create", { slug, name: "Acme Labs", founderEmail, founderName: "Maya" });
    expect(result.organization).toMatchObject({ slug, name: "Acme Labs" });
    expect(result.member).toMatchObject({ name: "Maya", role: "founder" });
    expect(result.link).toMatch(/^http:\/\/localhost:\d+\/invite\/sdn_in_[0-9A-Za-z]{38}$/);
    expect(new Date(result.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(result.mail).toBe("mail off");
    // Opening the link reads it: it stays open however often it is opened.
    const token = tokenOf(result.link);
    for (let i = 0; i < 2; i++) expect((await inspectInvitation(token)).state).toBe("open");
    // Only its hash is stored; the listing never shows it.
    const db = await getDb();
    const stored = await db.invitation.findMany({ where: { organizationId: result.organization.id } });
    expect(JSON.stringify(stored)).not.toContain(token);
    const listed = await runCommand("invites.list", { org: slug });
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed.invitations).toMatchObject([
      { email: founderEmail.toLowerCase(), role: "founder", status: "pending" },
    ]);

    const user = await authorizeInvitation({ token, password: STRONG });
    expect(user).toMatchObject({ name: "Maya", role: "founder", organizationId: result.organization.id });
    expect(await signIn(founderEmail.toLowerCase(), STRONG)).toMatchObject({ role: "founder" });
    expect((await inspectInvitation(token)).state).toBe("used");
    const trail = await listActivity(result.organization.id, ["organization", "member", "invitation"]);
    expect(trail.map((l) => `${l.actor}: ${l.subject.type} ${l.action}`)).toEqual([
      "Maya: invitation accepted",
      "cli: invitation created",
      "cli: member created",
      "cli: organization created",
    ]);
  });

  it("refuses a slug that exists with a clear message, and creates nothing", async () => {
    const { slug } = await newOrganization();
    await expect(
      runCommand("orgs.create", { slug, name: "Again", founderEmail: `x@${unique()}.example`, founderName: "X" }),
    ).rejects.toThrow(`An organization with the slug ${slug} already exists; choose another.`);
    expect((await runCommand("orgs.list", {})).filter((o) => o.slug === slug)).toHaveLength(1);
  });

  it("concurrent attempts with one slug make one organization and one founder", async () => {
    const slug = `race-${unique()}`;
    const attempts = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        runCommand("orgs.create", { slug, name: "Race", founderEmail: `f${i}@${slug}.example`, founderName: `F${i}` }),
      ),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    for (const refused of attempts.filter((a) => a.status === "rejected")) {
      expect(String((refused as PromiseRejectedResult).reason)).toContain("already exists");
    }
    const db = await getDb();
    const organization = await db.organization.findUniqueOrThrow({ where: { slug } });
    expect(await db.member.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("refuses names without a visible character and bad slugs, by the shared rules", async () => {
    await expect(
      runCommand("orgs.create", {
        slug: `ok-${unique()}`,
        name: "\u200b \u3164",
        founderEmail: "a@b.example",
        founderName: "A",
      }),
    ).rejects.toThrow(/visible character/);
    await expect(
      runCommand("orgs.create", { slug: "Not A Slug", name: "X", founderEmail: "a@b.example", founderName: "A" }),
    ).rejects.toThrow(/lower-case letters/);
  });
});

describe("one-time links", () => {
  it("two tabs completing one link at once: exactly one wins, the other is told it is used", async () => {
    const { founder } = await newOrganization();
    const email = `twice-${unique()}@example.com`;
    const state = await createInvitationAction.forUser(founder, form({ email, role: "member" }));
    if (state.status !== "created") throw new Error(JSON.stringify(state));
    const token = tokenOf(state.link.link);
    const outcomes = await Promise.allSettled([
      authorizeInvitation({ token, password: STRONG, name: "Tab One" }),
      authorizeInvitation({ token, password: `${STRONG} two`, name: "Tab Two" }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(
      outcomes.filter((o) => o.status === "rejected").map((o) => String((o as PromiseRejectedResult).reason)),
    ).toEqual(["Error: LinkUsed"]);
    const db = await getDb();
    expect(await db.member.count({ where: { organizationId: founder.organization.id, email } })).toBe(1);
    // Replayed later: refused, nothing changes.
    await expect(
      authorizeInvitation({ token, password: "another long passphrase here", name: "Late" }),
    ).rejects.toThrow("LinkUsed");
  });

  it("an expired, a revoked and a made-up link say so and set nothing", async () => {
    const { founder } = await newOrganization();
    const db = await getDb();
    const expired = await createInvitation({
      organizationId: founder.organization.id,
      email: `old-${unique()}@example.com`,
      role: "member",
      actor: { label: "cli" },
    });
    await db.invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await inspectInvitation(expired.token)).state).toBe("expired");
    await expect(authorizeInvitation({ token: expired.token, password: STRONG, name: "Old" })).rejects.toThrow(
      "LinkExpired",
    );

    const revoked = await createInvitationAction.forUser(
      founder,
      form({ email: `rev-${unique()}@example.com`, role: "lead" }),
    );
    if (revoked.status !== "created") throw new Error(JSON.stringify(revoked));
    const revokeState = await revokeInvitationAction.forUser(founder, form({ invitationId: revoked.link.id }));
    expect(revokeState).toMatchObject({ status: "revoked", changed: true });
    await expect(
      authorizeInvitation({ token: tokenOf(revoked.link.link), password: STRONG, name: "Rev" }),
    ).rejects.toThrow("LinkRevoked");

    await expect(authorizeInvitation({ token: "sdn_in_made-up", password: STRONG })).rejects.toThrow("LinkUnknown");
    expect(await db.user.count({ where: { member: { organizationId: founder.organization.id } } })).toBe(1);
  });

  it("a link completes only for its own address (Google/GitHub), and a weak password uses nothing up", async () => {
    const { founder } = await newOrganization();
    const email = `own-${unique()}@example.com`;
    const made = await createInvitation({
      organizationId: founder.organization.id,
      email,
      role: "member",
      actor: { label: "cli" },
    });
    await expect(
      completeInvitation({ token: made.token, passwordHash: null, name: "X", verifiedEmail: "someone@else.example" }),
    ).rejects.toThrow("LinkOtherEmail");
    expect((await inspectInvitation(made.token)).state).toBe("open");
    for (const weak of ["short", "password1234", `${email}1`]) {
      await expect(authorizeInvitation({ token: made.token, password: weak, name: "Own" })).rejects.toThrow(
        "WeakPassword",
      );
    }
    expect((await inspectInvitation(made.token)).state).toBe("open");
    // Google/GitHub with the same verified address: a sign-in without any password.
    const user = await completeInvitation({ token: made.token, passwordHash: null, name: "Own", verifiedEmail: email });
    expect(user).toMatchObject({ email, role: "member" });
    expect(await findSessionUserByEmail(email)).toMatchObject({ role: "member" });
    expect(await signIn(email, STRONG)).toBeNull();
  });

  it("a link for someone who signs in resets their password", async () => {
    const { founder, founderEmail } = await newOrganization();
    const lead = await join(founder, "lead", "Lena");
    const state = await createInvitationAction.forUser(founder, form({ email: lead.email, role: "lead" }));
    if (state.status !== "created") throw new Error(JSON.stringify(state));
    expect(state.link.resetsPassword).toBe(true);
    const view = await inspectInvitation(tokenOf(state.link.link));
    expect(view.open).toMatchObject({ resetsPassword: true, name: "Lena" });
    await authorizeInvitation({ token: tokenOf(state.link.link), password: "new lantern meadow quartz" });
    expect(await signIn(lead.email, STRONG)).toBeNull();
    expect(await signIn(lead.email, "new lantern meadow quartz")).toMatchObject({ userId: lead.userId });
    expect(await signIn(founderEmail, STRONG)).toMatchObject({ role: "founder" });
  });

  it("a new link replaces the address's pending one; revokePendingInvitations ends them", async () => {
    const { founder } = await newOrganization();
    const email = `again-${unique()}@example.com`;
    const first = await createInvitation({
      organizationId: founder.organization.id,
      email,
      role: "member",
      actor: { label: "cli" },
    });
    const second = await createInvitation({
      organizationId: founder.organization.id,
      email,
      role: "member",
      actor: { label: "cli" },
    });
    expect((await inspectInvitation(first.token)).state).toBe("revoked");
    expect((await inspectInvitation(second.token)).state).toBe("open");
    const db = await getDb();
    const revoked = await db.$transaction((tx) =>
      revokePendingInvitations(tx, founder.organization.id, email.toUpperCase()),
    );
    expect(revoked).toBe(1);
    expect((await inspectInvitation(second.token)).state).toBe("revoked");
  });
});

describe("Settings → Team → Invitations: who may do what", () => {
  it("members are refused on every invitation action, and nothing is made or revoked", async () => {
    const { founder } = await newOrganization();
    const member = await join(founder, "member", "Milo");
    const pending = await createInvitation({
      organizationId: founder.organization.id,
      email: `p-${unique()}@example.com`,
      role: "member",
      actor: { label: "cli" },
    });
    const refusal = "Only founders and leads can manage the team.";
    expect(
      await createInvitationAction.forUser(member, form({ email: "x@example.com", role: "member" })),
    ).toMatchObject({
      status: "error",
      message: refusal,
    });
    expect(await revokeInvitationAction.forUser(member, form({ invitationId: pending.id }))).toEqual({
      status: "error",
      message: refusal,
    });
    expect((await inspectInvitation(pending.token)).state).toBe("open");
    expect((await listInvitations(founder.organization.id, "pending")).map((i) => i.email)).toEqual([pending.email]);
  });

  it("a lead cannot invite a founder, nor send a founder a reset link; a lead invites leads and members", async () => {
    const { founder, founderEmail } = await newOrganization();
    const lead = await join(founder, "lead", "Lee");
    expect(
      await createInvitationAction.forUser(lead, form({ email: `f-${unique()}@example.com`, role: "founder" })),
    ).toMatchObject({
      status: "error",
      message: "A lead cannot invite a founder: nobody invites above their own role.",
    });
    expect(await createInvitationAction.forUser(lead, form({ email: founderEmail, role: "lead" }))).toMatchObject({
      status: "error",
      message: "Ada Ode is a founder: only a founder can send them a link.",
    });
    expect(
      await createInvitationAction.forUser(lead, form({ email: `l-${unique()}@example.com`, role: "lead" })),
    ).toMatchObject({
      status: "created",
    });
    // From the CLI the operator may make any role.
    expect(
      await runCommand("invites.create", {
        org: founder.organization.slug,
        email: `c-${unique()}@example.com`,
        role: "founder",
      }),
    ).toMatchObject({ role: "founder", status: "pending" });
  });

  it("another organization's invitation is not found, and stays open", async () => {
    const one = await newOrganization();
    const other = await newOrganization();
    const theirs = await createInvitation({
      organizationId: other.founder.organization.id,
      email: `t-${unique()}@example.com`,
      role: "member",
      actor: { label: "cli" },
    });
    expect(await revokeInvitationAction.forUser(one.founder, form({ invitationId: theirs.id }))).toEqual({
      status: "error",
      message: "This invitation does not exist in your organization.",
    });
    expect((await inspectInvitation(theirs.token)).state).toBe("open");
  });

  it("an address that signs in to another organization is refused", async () => {
    const one = await newOrganization();
    const other = await newOrganization();
    expect(
      await createInvitationAction.forUser(one.founder, form({ email: other.founderEmail, role: "member" })),
    ).toMatchObject({
      status: "error",
      message: `${other.founderEmail} already signs in to another organization; one address signs in to one.`,
    });
  });
});

describe("e-mailed links", () => {
  let smtp: RunningSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.stop());

  it("with SMTP_URL an invitation is e-mailed, its link and expiry in it; the link works", async () => {
    const { founder } = await newOrganization();
    const email = `mail-${unique()}@example.com`;
    const state = await withEnv({ SMTP_URL: smtp.url, SMTP_FROM: "Sundown <sundown@test.example>" }, () =>
      createInvitationAction.forUser(founder, form({ email, role: "member" })),
    );
    if (state.status !== "created") throw new Error(JSON.stringify(state));
    expect(state.link.mail).toBe("sent");
    const text = messageText(await smtp.messageTo(email));
    expect(text).toContain(state.link.link);
    expect(text).toContain(`The link expires on ${state.link.expiresAt.slice(0, 16).replace("T", " ")} UTC`);
    expect(text).toContain(`Subject: You are invited to ${founder.organization.name} on Sundown`);
    await authorizeInvitation({ token: tokenOf(state.link.link), password: STRONG, name: "Mailed" });
    expect(await findSessionUserByEmail(email)).toMatchObject({ name: "Mailed" });
  });

  it("sundown doctor checks the mail settings and sends a test message with --mail-to", async () => {
    const source = { NODE_ENV: "development" as const, SUNDOWN_DATA_DIR: "memory://doctor-mail", SMTP_URL: smtp.url };
    const report = await runDoctor(source, new Date(), { mailTo: "ops@example.com" });
    expect(report.checks.find((c) => c.name === "mail")).toEqual({
      name: "mail",
      status: "pass",
      detail: `${smtp.url}: a test message was sent to ops@example.com`,
    });
    expect(messageText(await smtp.messageTo("ops@example.com"))).toContain("Subject: Sundown test message");
    const unreachable = await runDoctor({ ...source, SMTP_URL: "smtp://mailer:pw-secret@127.0.0.1:9" });
    expect(unreachable.checks.find((c) => c.name === "mail")).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/^smtp:\/\/mailer:\*\*\*\*@127\.0\.0\.1:9\/?: /),
    });
    expect(JSON.stringify(unreachable)).not.toContain("pw-secret");
  });

  it("Forgot password? answers alike for a known and an unknown address, and mails only the known one", async () => {
    const { founder, founderEmail } = await newOrganization();
    const unknown = `nobody-${unique()}@example.com`;
    const address = new Headers({ "x-forwarded-for": `192.0.2.${Math.floor(Math.random() * 200)}` });
    const [known, stranger] = await withEnv({ SMTP_URL: smtp.url, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const one = await requestPasswordReset(form({ email: founderEmail }), address);
      const two = await requestPasswordReset(form({ email: unknown }), address);
      await Promise.all([one.settled, two.settled]);
      return [one.state, two.state];
    });
    expect(known).toEqual({ status: "sent", email: founderEmail });
    expect(stranger).toEqual({ status: "sent", email: unknown });
    const text = messageText(await smtp.messageTo(founderEmail));
    expect(text).toContain(`Subject: Set a new Sundown password for ${founder.organization.name}`);
    expect(smtp.messages.some((m) => m.to.includes(unknown))).toBe(false);
    const link = /http:\/\/\S+\/invite\/sdn_in_[0-9A-Za-z]+/.exec(text)![0];
    await authorizeInvitation({ token: tokenOf(link), password: "fresh quilt harbor tango" });
    expect(await signIn(founderEmail, "fresh quilt harbor tango")).toMatchObject({ role: "founder" });
  });

  it("Forgot password? is rate-limited per address, and off without mail", async () => {
    const address = new Headers({ "x-forwarded-for": "192.0.2.250" });
    const states = await withEnv({ SMTP_URL: smtp.url, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const out = [];
      for (let i = 0; i < 11; i++)
        out.push((await requestPasswordReset(form({ email: `x${i}@example.com` }), address)).state);
      return out;
    });
    expect(states.slice(0, 10).every((s) => s.status === "sent")).toBe(true);
    expect(states[10]).toEqual({
      status: "error",
      message: "Too many requests from here. Wait 15 minutes, then try again.",
    });
    await withEnv({ SMTP_URL: undefined }, async () => {
      expect((await requestPasswordReset(form({ email: "a@example.com" }), address)).state).toMatchObject({
        status: "error",
        message: "Mail is off on this Sundown.",
      });
    });
  });

  it("Forgot password? mails one person at most 3 links in 15 minutes, however many hosts ask, answering alike", async () => {
    const { founderEmail } = await newOrganization();
    const states = await withEnv({ SMTP_URL: smtp.url, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const out = [];
      for (let i = 0; i < 5; i++) {
        const from = new Headers({ "x-forwarded-for": `198.51.100.${10 + i}` });
        const request = await requestPasswordReset(form({ email: founderEmail }), from);
        await request.settled;
        out.push(request.state);
      }
      return out;
    });
    expect(states).toEqual(Array(5).fill({ status: "sent", email: founderEmail }));
    expect(smtp.messages.filter((m) => m.to.includes(founderEmail))).toHaveLength(3);
  });

  it("a failed send keeps the link, and says so", async () => {
    const refusing = await startSmtpServer({ refuse: true });
    try {
      const { founder } = await newOrganization();
      const email = `bounce-${unique()}@example.com`;
      const state = await withEnv({ SMTP_URL: refusing.url }, () =>
        createInvitationAction.forUser(founder, form({ email, role: "member" })),
      );
      if (state.status !== "created") throw new Error(JSON.stringify(state));
      expect(state.link.mail).toBe("failed");
      expect((await inspectInvitation(tokenOf(state.link.link))).state).toBe("open");
    } finally {
      await refusing.stop();
    }
  });
});

describe("/setup", () => {
  const setupForm = (token: string) =>
    form({
      token,
      slug: `s-${unique()}`,
      name: "Setup Co",
      founderName: "Sam",
      founderEmail: `sam-${unique()}@example.com`,
    });
  const from = (address: string) => new Headers({ "x-forwarded-for": address });

  it("refuses a wrong token, and makes no organization once one exists", async () => {
    await withEnv({ SUNDOWN_SETUP_TOKEN: "the-right-setup-token-123" }, async () => {
      const before = (await runCommand("orgs.list", {})).length;
      expect(await runSetup(setupForm("the-wrong-setup-token-12"), from("198.51.100.7"))).toMatchObject({
        status: "error",
        fieldErrors: { token: "That is not the setup token." },
      });
      expect(await runSetup(setupForm("the-right-setup-token-123"), from("198.51.100.7"))).toMatchObject({
        status: "error",
        message: "Sundown is already set up: sign in, or ask a founder for a link.",
      });
      expect((await runCommand("orgs.list", {})).length).toBe(before);
    });
  });

  it("is off while SUNDOWN_SETUP_TOKEN is unset", async () => {
    await withEnv({ SUNDOWN_SETUP_TOKEN: undefined }, async () => {
      expect(await runSetup(setupForm(""), from("198.51.100.8"))).toMatchObject({
        status: "error",
        message: "Setup is switched off: SUNDOWN_SETUP_TOKEN is not set.",
      });
    });
  });
});
