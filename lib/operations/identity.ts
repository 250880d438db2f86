import { identitySchema, type Identity } from "@/lib/schemas/identity";
import { EXAMPLE_ORGANIZATION_ID, acme } from "./example-ids";
import { defineKeyedOperation } from "./operation";

// GET /api/v1/me and the whoami tool: who the calling key belongs to, answered from the verified key alone.

function renderIdentity(identity: Identity): string {
  return [
    `Organization: ${identity.organization.name} (id ${identity.organization.id})`,
    `Scopes: ${identity.scopes.join(", ") || "none"}`,
  ].join("\n");
}

export const identity = defineKeyedOperation({
  operationId: "getIdentity",
  method: "GET",
  path: "/api/v1/me",
  tag: "Identity",
  access: "key",
  scope: undefined,
  parameters: {},
  output: identitySchema,
  statuses: [],
  summary: "Identify the calling key",
  description: "The organization the calling key belongs to and the key's scopes. Use it to verify a key.",
  brief: "the key's organization and scopes",
  returns: "The key's organization and scopes.",
  tool: {
    name: "whoami",
    title: "Check API key identity",
    description:
      "Returns who the API key belongs to: the organization (id and name) and the scopes the key carries " +
      "(reports:read for list_reports and get_report, team:read for list_team). Takes no arguments and works with any " +
      "valid key. Call it first to confirm access, or after an insufficient_scope error to see what the key can read; " +
      "for the reports and roster themselves use the other tools.",
    text: renderIdentity,
  },
  example: {
    organization: { id: EXAMPLE_ORGANIZATION_ID, name: acme.name },
    scopes: ["reports:read", "team:read"],
  },
});
