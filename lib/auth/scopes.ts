import { z } from "zod";

// The one list of scopes: it feeds the TypeScript type, the zod enum, OpenAPI and the settings form.
export const SCOPES = ["reports:read", "team:read"] as const;

export type Scope = (typeof SCOPES)[number];

export const scopeSchema = z.enum(SCOPES);

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "reports:read": "Read end-of-day reports of the key's organization",
  "team:read": "Read the team roster of the key's organization",
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
