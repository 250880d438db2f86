import { z } from "zod";
import { createIngestToken, revokeIngestToken, rollIngestToken } from "@/lib/data/ingest-tokens";
import { uuid } from "@/lib/schemas/common";
import { ingestTokenNameSchema } from "@/lib/schemas/key-name";
import { KEY_OVERLAPS, keyOverlapSchema } from "@/lib/schemas/key-overlap";
import { settingsAction, settingsFormAction, type StateOf } from "./action";
import { singleFields } from "./form-fields";

// Settings → Ingest tokens on the settings kit (lib/settings/action.ts): create, roll and revoke an organization's
// tokens, as `sundown ingest-tokens` does, with the same name rule. A new token's secret travels in the one
// response that made it.

/** A new token as the page shows it once. */
export interface NewIngestToken {
  id: string;
  name: string;
  secret: string;
  hint: string;
}

const newTokenOf = (created: { id: string; name: string; token: string; hint: string }): NewIngestToken => ({
  id: created.id,
  name: created.name,
  secret: created.token,
  hint: created.hint,
});

const NOT_IN_ORGANIZATION = "This ingest token does not exist in your organization.";

const tokenId = uuid.transform((id) => id.toLowerCase());

const CREATE_FORM = {
  fields: ["name"],
  echo: { name: "text" },
  invalid: "The token was not created. Fix the fields marked below.",
} as const;

export type CreateIngestTokenField = (typeof CREATE_FORM.fields)[number];

export const createToken = settingsFormAction({
  section: "ingest-tokens",
  read: singleFields("name"),
  schema: z.object({ name: ingestTokenNameSchema }),
  form: CREATE_FORM,
  run: async ({ name }, { organizationId, actor }) => {
    const created = await createIngestToken({ organizationId, name, actor });
    return { status: "created" as const, token: newTokenOf(created) };
  },
  audit: { action: "ingest-tokens.create", done: ({ token }) => ({ ingest_token_id: token.id }) },
});

export const rollToken = settingsAction({
  section: "ingest-tokens",
  read: singleFields("tokenId", "overlap"),
  schema: z.object({ tokenId, overlap: keyOverlapSchema }),
  notFound: NOT_IN_ORGANIZATION,
  invalid: (error) => error.issues.find((issue) => issue.path[0] === "overlap")?.message,
  run: async ({ tokenId, overlap }, { organizationId, actor, now }) => {
    const { token, previous } = await rollIngestToken(organizationId, tokenId, {
      overlapMs: KEY_OVERLAPS[overlap],
      actor,
      now,
    });
    return {
      status: "rolled" as const,
      token: newTokenOf(token),
      previous: { id: previous.id, stopsAt: previous.stopsAt.toISOString() },
    };
  },
  audit: {
    action: "ingest-tokens.roll",
    ids: ({ tokenId, overlap }) => ({ ingest_token_id: tokenId, overlap }),
    done: ({ token }) => ({ new_ingest_token_id: token.id }),
  },
});

export const revokeToken = settingsAction({
  section: "ingest-tokens",
  read: singleFields("tokenId"),
  schema: z.object({ tokenId }),
  notFound: NOT_IN_ORGANIZATION,
  run: async ({ tokenId }, { organizationId, actor, now }) => {
    const { revokedAt } = await revokeIngestToken(organizationId, tokenId, actor, now);
    return { status: "revoked" as const, tokenId, revokedAt: revokedAt.toISOString() };
  },
  audit: { action: "ingest-tokens.revoke", ids: ({ tokenId }) => ({ ingest_token_id: tokenId }) },
});

export type CreateIngestTokenState = StateOf<typeof createToken>;
export type RollIngestTokenState = StateOf<typeof rollToken>;
export type RevokeIngestTokenState = StateOf<typeof revokeToken>;
