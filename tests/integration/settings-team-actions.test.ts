import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listActivity } from "@/lib/data/activity";
import { createApiKey } from "@/lib/data/api-keys";
import { createInvitation, listInvitations } from "@/lib/data/invitations";
import { listRoster } from "@/lib/data/members";
import { findSessionUser } from "@/lib/data/users";
import { getDb } from "@/lib/db";
import { addPerson, deactivatePerson, editPerson, importRoster, reactivatePerson } from "@/lib/settings/team-actions";
import { form } from "../helpers/settings-forms";
import { authorizeCredentials, getAuthOptions } from "@/lib/session/next-auth";
import { PEER_ADDRESS_HEADER } from "@/lib/ratelimit/client-address";
import { createTeamOrg, TEAM_PASSWORD, type TeamOrg } from "../helpers/team-org";

// The logic behind Settings → Team's server actions, called as the actions call it: with the signed-in user as the
// database knows them and the raw form data. Each test has an organization of its own (tests/helpers/team-org.ts).

const MEMBERS_REFUSED = "Only founders and leads can manage the team.";
const NOT_FOUND = "This person does not exist in your organization.";

let org: TeamOrg;

/** Whether a key still works: not revoked (or revoked only in the future). */
async function works(key: { id: string }) {
  const db = await getDb();
  const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { revokedAt: true } });
  return row.revokedAt === null || row.revokedAt > new Date();
}

beforeAll(async () => {
  await getDb();
});

beforeEach(async () => {
  org = await createTeamOrg();
});

const person = (fields: Record<string, string>) =>
  form({ name: "Ana Lima", email: "ana@team.example", role: "member", department: "Design", ...fields });

async function rosterRow(name: string) {
  return (await listRoster(org.id)).find((m) => m.name === name);
}

describe("Settings → Team: who may change the roster", () => {
  it("refuses a member every action, and changes nothing", async () => {
    const before = await listRoster(org.id);
    const target = org.lead.memberId;
    const states = [
      await addPerson.forUser(org.member, person({})),
      await editPerson.forUser(org.member, person({ memberId: target })),
      await deactivatePerson.forUser(org.member, form({ memberId: target })),
      await reactivatePerson.forUser(org.member, form({ memberId: target })),
      await importRoster.forUser(
        org.member,
        form({ step: "confirm", content: "name,email,role\nX,x@t.example,member" }),
      ),
    ];
    for (const state of states) expect(state).toMatchObject({ status: "error", message: MEMBERS_REFUSED });
    expect(await listRoster(org.id)).toEqual(before);
  });

  it("lets a founder and a lead add people with their contact details, kept off the API's fields", async () => {
    const added = await addPerson.forUser(
      org.lead,
      person({
        otherEmails: "ana.lima@home.example\n",
        chats: "@ana\nU0ANA42",
        phones: "+44 20 7946 0958",
        external: "true",
      }),
    );
    expect(added).toMatchObject({ status: "added", member: { name: "Ana Lima" } });
    expect(await rosterRow("Ana Lima")).toMatchObject({
      role: "member",
      department: "Design",
      external: true,
      active: true,
      email: "ana@team.example",
      otherEmails: ["ana.lima@home.example"],
      chats: ["@ana", "U0ANA42"],
      phones: ["+44 20 7946 0958"],
    });
    const byFounder = await addPerson.forUser(
      org.founder,
      person({ name: "Bo", email: "bo@team.example", role: "founder" }),
    );
    expect(byFounder.status).toBe("added");
    const trail = await listActivity(org.id, ["member"]);
    expect(trail.map((line) => [line.subject.label, line.action, line.actor])).toEqual([
      ["Bo", "added", "Fatima Founder"],
      ["Ana Lima", "added", "Leo Lead"],
    ]);
  });

  it("names the fields at fault and keeps what was typed", async () => {
    const state = await addPerson.forUser(org.founder, person({ email: "not-an-address", phones: "12345" }));
    expect(state).toMatchObject({
      status: "error",
      fieldErrors: {
        email: "Must be an e-mail address such as ana@example.com.",
        phones: "Must be a phone number with its country code, such as +44 20 7946 0958.",
      },
      values: { email: "not-an-address", phones: "12345" },
    });
    expect(await rosterRow("Ana Lima")).toBeUndefined();
  });

  it("refuses a second person with the same address, whatever its case", async () => {
    await addPerson.forUser(org.founder, person({}));
    const state = await addPerson.forUser(org.founder, person({ name: "Other Ana", email: "ANA@team.example" }));
    expect(state).toMatchObject({
      status: "error",
      message: "Someone of the roster already has the address ANA@team.example.",
    });
  });

  it("refuses a lead granting the founder role, or changing a founder", async () => {
    const grant = await editPerson.forUser(
      org.lead,
      person({ memberId: org.member.memberId, name: "Mia Member", email: org.member.email, role: "founder" }),
    );
    expect(grant).toMatchObject({ status: "error", message: "Only founders can grant the founder role." });
    const add = await addPerson.forUser(org.lead, person({ role: "founder" }));
    expect(add).toMatchObject({ status: "error", message: "Only founders can grant the founder role." });
    const demote = await editPerson.forUser(
      org.lead,
      person({ memberId: org.founder.memberId, name: "Fatima Founder", email: org.founder.email, role: "member" }),
    );
    expect(demote).toMatchObject({ status: "error", message: "Only founders can change a founder." });
    const deactivate = await deactivatePerson.forUser(org.lead, form({ memberId: org.founder.memberId }));
    expect(deactivate).toMatchObject({ status: "error", message: "Only founders can change a founder." });
    expect((await rosterRow("Mia Member"))?.role).toBe("member");
    expect((await rosterRow("Fatima Founder"))?.active).toBe(true);
    // A lead manages members and leads.
    const promote = await editPerson.forUser(
      org.lead,
      person({ memberId: org.member.memberId, name: "Mia Member", email: org.member.email, role: "lead" }),
    );
    expect(promote).toMatchObject({ status: "saved", change: "updated" });
    const trail = await listActivity(org.id, ["member"]);
    expect(trail[0]).toMatchObject({ action: "updated", detail: { role_before: "member", role: "lead" } });
  });

  it("lets a founder grant and remove the founder role", async () => {
    const grant = await editPerson.forUser(
      org.founder,
      person({ memberId: org.lead.memberId, name: "Leo Lead", email: org.lead.email, role: "founder" }),
    );
    expect(grant).toMatchObject({ status: "saved" });
    const remove = await editPerson.forUser(
      org.founder,
      person({ memberId: org.lead.memberId, name: "Leo Lead", email: org.lead.email, role: "lead" }),
    );
    expect(remove).toMatchObject({ status: "saved" });
  });

  it("answers another organization's ids as unknown, and changes nothing there", async () => {
    const other = await createTeamOrg();
    for (const state of [
      await editPerson.forUser(org.founder, person({ memberId: other.member.memberId })),
      await deactivatePerson.forUser(org.founder, form({ memberId: other.member.memberId })),
      await reactivatePerson.forUser(org.founder, form({ memberId: other.member.memberId })),
    ]) {
      expect(state).toMatchObject({ status: "error" });
    }
    expect(await deactivatePerson.forUser(org.founder, form({ memberId: other.member.memberId }))).toEqual({
      status: "error",
      message: NOT_FOUND,
    });
    expect(await findSessionUser(other.member.userId)).not.toBeNull();
  });
});

describe("Settings → Team: the last founder", () => {
  it("refuses demoting or deactivating the last active founder", async () => {
    const demote = await editPerson.forUser(
      org.founder,
      person({ memberId: org.founder.memberId, name: "Fatima Founder", email: org.founder.email, role: "lead" }),
    );
    expect(demote).toMatchObject({ status: "error", message: expect.stringMatching(/without an active founder/) });
    const deactivate = await deactivatePerson.forUser(org.founder, form({ memberId: org.founder.memberId }));
    expect(deactivate).toMatchObject({ status: "error", message: expect.stringMatching(/without an active founder/) });
    expect(await rosterRow("Fatima Founder")).toMatchObject({ role: "founder", active: true });
  });

  it("lets exactly one of two concurrent demotions of the last two founders pass", async () => {
    await editPerson.forUser(
      org.founder,
      person({ memberId: org.lead.memberId, name: "Leo Lead", email: org.lead.email, role: "founder" }),
    );
    const second = (await findSessionUser(org.lead.userId))!;
    const [a, b] = await Promise.all([
      editPerson.forUser(
        org.founder,
        person({ memberId: org.founder.memberId, name: "Fatima Founder", email: org.founder.email, role: "lead" }),
      ),
      editPerson.forUser(
        second,
        person({ memberId: org.lead.memberId, name: "Leo Lead", email: org.lead.email, role: "lead" }),
      ),
    ]);
    expect([a.status, b.status].sort()).toEqual(["error", "saved"]);
    const founders = (await listRoster(org.id)).filter((m) => m.role === "founder" && m.active);
    expect(founders).toHaveLength(1);
  });
});

/** What next-auth's session endpoint (/api/auth/session) answers for the cookie of a credentials sign-in. */
async function sessionEndpointFor(email: string) {
  const callbacks = getAuthOptions().callbacks!;
  const user = (await authorizeCredentials(
    { email, password: TEAM_PASSWORD },
    { [PEER_ADDRESS_HEADER]: "203.0.113.77" },
  ))!;
  const token = await callbacks.jwt!({
    token: { name: user.name, email: user.email, sub: user.id },
    user,
    account: { type: "credentials", provider: "credentials", providerAccountId: user.id },
  } as never);
  return () => callbacks.session!({ session: { expires: "2099-01-01T00:00:00.000Z" }, token } as never);
}

describe("Settings → Team: deactivation", () => {
  it("revokes the person's pending one-time link, so it cannot bring them back", async () => {
    const actor = { userId: org.founder.userId, label: org.founder.name, role: "founder" as const };
    await createInvitation({ organizationId: org.id, email: org.member.email, role: "member", actor });
    expect(await listInvitations(org.id, "pending")).toMatchObject([{ email: org.member.email }]);
    expect(await deactivatePerson.forUser(org.founder, form({ memberId: org.member.memberId }))).toMatchObject({
      status: "deactivated",
    });
    expect(await listInvitations(org.id, "pending")).toEqual([]);
    expect(await listInvitations(org.id)).toMatchObject([{ email: org.member.email, status: "revoked" }]);
  });

  it("ends the person's signed-in session at the session endpoint from the next request", async () => {
    const session = await sessionEndpointFor(org.member.email);
    expect(await session()).toMatchObject({ user: { role: "member" } });
    expect(await deactivatePerson.forUser(org.lead, form({ memberId: org.member.memberId }))).toMatchObject({
      status: "deactivated",
    });
    expect(await session()).toEqual({});
  });

  it("refuses the person's session from the next request, and revokes only the keys chosen", async () => {
    const actor = { userId: org.lead.userId, label: org.lead.name };
    const revoked = await createApiKey({ organizationId: org.id, name: "CI agent", scopes: ["team:read"], actor });
    const kept = await createApiKey({ organizationId: org.id, name: "Dashboard", scopes: ["team:read"], actor });
    expect(await findSessionUser(org.lead.userId)).not.toBeNull();

    const state = await deactivatePerson.forUser(
      org.founder,
      form({ memberId: org.lead.memberId, revokeKeyIds: [revoked.id] }),
    );
    expect(state).toEqual({ status: "deactivated", memberId: org.lead.memberId, revokedKeys: 1 });
    // The session is re-read from the database on every page, action and /api/auth/session.
    expect(await findSessionUser(org.lead.userId)).toBeNull();
    expect(await addPerson.forUser(await findSessionUser(org.lead.userId), person({}))).toMatchObject({
      status: "error",
      message: "Your session has ended. Sign in again to manage the team.",
    });
    expect(await works(revoked)).toBe(false);
    expect(await works(kept)).toBe(true);
    expect((await rosterRow("Leo Lead"))?.active).toBe(false);

    // A key someone else created is not theirs to revoke with the deactivation.
    const founderKey = await createApiKey({
      organizationId: org.id,
      name: "Founder's",
      scopes: ["team:read"],
      actor: { userId: org.founder.userId, label: "f" },
    });
    const refused = await deactivatePerson.forUser(
      org.founder,
      form({ memberId: org.member.memberId, revokeKeyIds: [founderKey.id] }),
    );
    expect(refused).toMatchObject({ status: "error" });
    expect(await works(founderKey)).toBe(true);
    expect((await rosterRow("Mia Member"))?.active).toBe(true);

    const back = await reactivatePerson.forUser(org.founder, form({ memberId: org.lead.memberId }));
    expect(back).toMatchObject({ status: "reactivated" });
    expect(await findSessionUser(org.lead.userId)).not.toBeNull();
    expect(await works(revoked)).toBe(false);
  });
});
