import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIngestToken } from "@/lib/admission/verify-ingest-token";
import { listActivity } from "@/lib/data/activity";
import { INGEST_TOKEN_SUBJECT, listIngestTokens } from "@/lib/data/ingest-tokens";
import { createToken, revokeToken, rollToken } from "@/lib/settings/ingest-token-actions";
import { form } from "../helpers/settings-forms";
import { createSettingsOrg, type SettingsOrg } from "../helpers/settings-org";

// Settings → Ingest tokens' actions on the settings kit, called as the page calls them: the signed-in user as the
// database knows them (or null) and the form's data. In organizations of this file's own.

const REFUSED_MEMBER = "Only founders and leads can manage ingest tokens.";
const NOT_FOUND = "This ingest token does not exist in your organization.";

let org: SettingsOrg;
let other: SettingsOrg;

beforeAll(async () => {
  org = await createSettingsOrg("tokens-page");
  other = await createSettingsOrg("tokens-other");
});

afterAll(async () => {
  await org?.remove();
  await other?.remove();
});

async function created(state: Awaited<ReturnType<typeof createToken.forUser>>) {
  if (state.status !== "created") throw new Error(`expected a token, got ${JSON.stringify(state)}`);
  return state.token;
}

/** What a refusal must leave as it was: the organization's tokens and its trail. */
const snapshot = async (o: SettingsOrg) => ({
  tokens: await listIngestTokens(o.id),
  trail: await listActivity(o.id, [INGEST_TOKEN_SUBJECT]),
});

describe("ingest tokens in Settings", () => {
  it("a founder creates one that works at once, shown once, then rolls and revokes it, each in the trail", async () => {
    const token = await created(await createToken.forUser(org.founder, form({ name: "Standup bot" })));
    expect(token.secret).toMatch(/^sdn_it_[0-9A-Za-z]{38}$/);
    await expect(verifyIngestToken(token.secret)).resolves.toMatchObject({
      name: "Standup bot",
      organization: { id: org.id },
    });
    const listed = (await listIngestTokens(org.id)).find((t) => t.id === token.id);
    expect(listed).toMatchObject({ name: "Standup bot", status: "active", createdBy: "Fran Founder" });
    expect(JSON.stringify(listed)).not.toContain(token.secret);

    const rolled = await rollToken.forUser(org.founder, form({ tokenId: token.id, overlap: "0" }));
    if (rolled.status !== "rolled") throw new Error(`expected a roll, got ${JSON.stringify(rolled)}`);
    expect(rolled.previous.id).toBe(token.id);
    await expect(verifyIngestToken(token.secret)).rejects.toThrow("The ingest token has been revoked.");
    await expect(verifyIngestToken(rolled.token.secret)).resolves.toMatchObject({ id: rolled.token.id });

    await expect(revokeToken.forUser(org.founder, form({ tokenId: rolled.token.id }))).resolves.toMatchObject({
      status: "revoked",
      tokenId: rolled.token.id,
    });
    await expect(verifyIngestToken(rolled.token.secret)).rejects.toThrow("The ingest token has been revoked.");
    const trail = await listActivity(org.id, [INGEST_TOKEN_SUBJECT]);
    expect(trail.map((l) => [l.actor, l.action, l.subject.id])).toEqual([
      ["Fran Founder", "revoked", rolled.token.id],
      ["Fran Founder", "rolled", token.id],
      ["Fran Founder", "created", token.id],
    ]);
  });

  it("a lead may too; a member, or someone signed out, may not, and nothing changes", async () => {
    const token = await created(await createToken.forUser(org.lead, form({ name: "Lead bot" })));
    const before = await snapshot(org);
    expect(await createToken.forUser(org.member, form({ name: "x" }))).toMatchObject({
      status: "error",
      message: REFUSED_MEMBER,
    });
    for (const [who, message] of [
      [org.member, REFUSED_MEMBER],
      [null, "Your session has ended. Sign in again to manage ingest tokens."],
    ] as const) {
      expect(await rollToken.forUser(who, form({ tokenId: token.id, overlap: "0" }))).toEqual({
        status: "error",
        message,
      });
      expect(await revokeToken.forUser(who, form({ tokenId: token.id }))).toEqual({ status: "error", message });
    }
    expect(await snapshot(org)).toEqual(before);
  });

  it("never touches another organization's token, and names what is wrong with a field", async () => {
    const theirs = await created(await createToken.forUser(other.founder, form({ name: "Their bot" })));
    const before = await snapshot(other);
    expect(await revokeToken.forUser(org.founder, form({ tokenId: theirs.id }))).toEqual({
      status: "error",
      message: NOT_FOUND,
    });
    expect(await rollToken.forUser(org.founder, form({ tokenId: theirs.id, overlap: "1h" }))).toEqual({
      status: "error",
      message: NOT_FOUND,
    });
    expect(await revokeToken.forUser(org.founder, form({ tokenId: "not-an-id" }))).toEqual({
      status: "error",
      message: NOT_FOUND,
    });
    await expect(verifyIngestToken(theirs.secret)).resolves.toMatchObject({ id: theirs.id });
    expect(await snapshot(other)).toEqual(before);

    expect(await createToken.forUser(org.founder, form({ name: "  " }))).toMatchObject({
      status: "error",
      fieldErrors: { name: "Enter a name for the token." },
      values: { name: "  " },
    });
    expect(await rollToken.forUser(org.founder, form({ tokenId: theirs.id, overlap: "2h" }))).toEqual({
      status: "error",
      message: "Choose an overlap: 0, 1h, 24h, 7d.",
    });
  });
});
