"use server";

import { createToken, revokeToken, rollToken } from "@/lib/settings/ingest-token-actions";

// Server actions of /settings/ingest-tokens, each the settings kit's pipeline (lib/settings/action.ts).

export const createIngestTokenAction = createToken.serve;
export const rollIngestTokenAction = rollToken.serve;
export const revokeIngestTokenAction = revokeToken.serve;
