import type { Scope } from "@/lib/auth/scopes";
import { createApiKey } from "@/lib/data/api-keys";
import { findOrganization } from "@/lib/data/organizations";

export const ALL_SCOPES: Scope[] = ["reports:read", "team:read"];

/** Mints a fresh key in a demo organization; every test makes its own, so none depends on another. */
export async function mintKey(org: "acme" | "globex" = "acme", scopes: Scope[] = ALL_SCOPES, expiresAt?: Date) {
  const organization = await findOrganization(org);
  if (!organization) throw new Error(`demo organization ${org} is missing`);
  const created = await createApiKey({
    organizationId: organization.id,
    name: `test-${Math.random().toString(36).slice(2, 8)}`,
    scopes,
    expiresAt,
    actor: { label: "test" },
  });
  return { ...created, organization };
}

export function bearer(key: string): HeadersInit {
  return { Authorization: `Bearer ${key}` };
}
