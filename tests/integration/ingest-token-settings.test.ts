import { beforeAll, describe, expect, it } from "vitest";
import { verifyIngestToken } from "@/lib/admission/verify-ingest-token";
import { getDb } from "@/lib/db";
import {
  createIngestTokenFor,
  listIngestTokensFor,
  revokeIngestTokenFor,
  rollIngestTokenFor,
} from "@/lib/settings/ingest-tokens";
import { user } from "../helpers/settings-forms";

// What Settings → Ingest tokens will call (its page comes with the settings kit): the role rule and the organization
// taken from the session, with the demo organizations' people.

beforeAll(async () => {
  await getDb();
});

const name = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;

describe("ingest tokens in Settings", () => {
  it("a founder creates one that works at once, lists it without its secret, rolls and revokes it", async () => {
    const founder = await user("founder@acme.example");
    const created = await createIngestTokenFor(founder, { name: name("standup-bot") });
    expect(created.token).toMatch(/^sdn_it_[0-9A-Za-z]{38}$/);
    await expect(verifyIngestToken(created.token)).resolves.toMatchObject({
      organization: { id: founder.organization.id },
    });
    const listed = (await listIngestTokensFor(founder)).find((t) => t.id === created.id);
    expect(listed).toMatchObject({ name: created.name, status: "active", createdBy: "Maya Chen" });
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const { token, previous } = await rollIngestTokenFor(founder, { tokenId: created.id, overlap: "0" });
    expect(previous.id).toBe(created.id);
    await expect(verifyIngestToken(created.token)).rejects.toThrow("The ingest token has been revoked.");
    await expect(verifyIngestToken(token.token)).resolves.toMatchObject({ id: token.id });
    await revokeIngestTokenFor(founder, { tokenId: token.id });
    await expect(verifyIngestToken(token.token)).rejects.toThrow("The ingest token has been revoked.");
  });

  it("a lead may too; a member, or someone signed out, may not", async () => {
    const lead = await user("lead@acme.example");
    await expect(createIngestTokenFor(lead, { name: name("lead-bot") })).resolves.toMatchObject({
      token: expect.stringMatching(/^sdn_it_/),
    });
    const member = await user("member@acme.example");
    await expect(createIngestTokenFor(member, { name: "x" })).rejects.toMatchObject({
      code: "forbidden",
      message: "Only founders and leads can manage ingest tokens.",
    });
    await expect(listIngestTokensFor(member)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listIngestTokensFor(null)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("never touches another organization's token, and names what is wrong with a field", async () => {
    const globex = await user("founder@globex.example");
    const theirs = await createIngestTokenFor(globex, { name: name("globex-bot") });
    const founder = await user("founder@acme.example");
    await expect(revokeIngestTokenFor(founder, { tokenId: theirs.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(rollIngestTokenFor(founder, { tokenId: theirs.id, overlap: "1h" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(verifyIngestToken(theirs.token)).resolves.toMatchObject({ id: theirs.id });
    await expect(createIngestTokenFor(founder, { name: "  " })).rejects.toMatchObject({
      code: "invalid_parameter",
      message: "Enter a name for the token.",
    });
    await expect(rollIngestTokenFor(founder, { tokenId: theirs.id, overlap: "2h" })).rejects.toMatchObject({
      code: "invalid_parameter",
      message: "Choose an overlap: 0, 1h, 24h, 7d.",
    });
  });
});
