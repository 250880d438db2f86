import type { Answer } from "./answer";

// GET /api/v1/me and the whoami tool (lib/operations/identity.ts), answered from the verified key alone.

export const identityAnswer = {
  fromKey: (key) => ({ organization: key.organization, scopes: key.scopes }),
} satisfies Answer<"identity">;
