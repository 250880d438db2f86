import { z } from "zod";
import {
  createIngestToken,
  listIngestTokens,
  revokeIngestToken,
  rollIngestToken,
  type CreatedIngestToken,
  type IngestTokenListItem,
  type RolledIngestToken,
} from "@/lib/data/ingest-tokens";
import type { SessionUser } from "@/lib/data/users";
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { UUID_SHAPE } from "@/lib/schemas/common";
import { ingestTokenNameSchema } from "@/lib/schemas/key-name";
import { KEY_OVERLAPS, keyOverlapSchema } from "@/lib/schemas/key-overlap";

// What Settings → Ingest tokens does for a signed-in person (the page itself comes with the settings kit). Founders
// and leads manage their own organization's tokens; members may not. The organization always comes from the session,
// never from the form. Refusals are ApiErrors: unauthorized (signed out), forbidden (a member), invalid_parameter
// (the field's message), not_found (not a token of this organization), conflict (rolling a rolled or revoked one).

/** The role rule: who may create, list, roll and revoke an organization's ingest tokens. */
function canManageIngestTokens(user: Pick<SessionUser, "role">): boolean {
  return user.role === "founder" || user.role === "lead";
}

function requireIngestTokenManager(user: SessionUser | null): SessionUser {
  if (!user) throw new ApiError("unauthorized", "Your session has ended. Sign in again to manage ingest tokens.");
  if (!canManageIngestTokens(user)) {
    throw new ApiError("forbidden", "Only founders and leads can manage ingest tokens.");
  }
  return user;
}

const actorOf = (user: SessionUser) => ({ userId: user.userId, label: user.name });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError("invalid_parameter", parsed.error.issues[0]!.message);
  return parsed.data;
}

const tokenIdSchema = z.string().regex(UUID_SHAPE, "This token does not exist in your organization.");

export async function createIngestTokenFor(
  user: SessionUser | null,
  input: { name: unknown },
): Promise<CreatedIngestToken> {
  const manager = requireIngestTokenManager(user);
  const name = parse(ingestTokenNameSchema, input.name);
  const token = await createIngestToken({ organizationId: manager.organization.id, name, actor: actorOf(manager) });
  log("info", "ingest token created", {
    ingest_token_id: token.id,
    organization_id: manager.organization.id,
    user_id: manager.userId,
  });
  return token;
}

export async function listIngestTokensFor(user: SessionUser | null): Promise<IngestTokenListItem[]> {
  return listIngestTokens(requireIngestTokenManager(user).organization.id);
}

export async function rollIngestTokenFor(
  user: SessionUser | null,
  input: { tokenId: unknown; overlap: unknown },
): Promise<RolledIngestToken> {
  const manager = requireIngestTokenManager(user);
  const tokenId = parse(tokenIdSchema, input.tokenId).toLowerCase();
  const overlap = parse(keyOverlapSchema, input.overlap);
  const rolled = await rollIngestToken(manager.organization.id, tokenId, {
    overlapMs: KEY_OVERLAPS[overlap],
    actor: actorOf(manager),
  });
  log("info", "ingest token rolled", {
    ingest_token_id: tokenId,
    organization_id: manager.organization.id,
    user_id: manager.userId,
  });
  return rolled;
}

export async function revokeIngestTokenFor(
  user: SessionUser | null,
  input: { tokenId: unknown },
): Promise<{ revokedAt: Date }> {
  const manager = requireIngestTokenManager(user);
  const tokenId = parse(tokenIdSchema, input.tokenId).toLowerCase();
  const revoked = await revokeIngestToken(manager.organization.id, tokenId);
  log("info", "ingest token revoked", {
    ingest_token_id: tokenId,
    organization_id: manager.organization.id,
    user_id: manager.userId,
  });
  return revoked;
}
