import { apiRootSchema } from "@/lib/schemas/api-root";
import { defineOperation } from "./operation";

// GET /api/v1: the public description of the API (lib/discovery/api-root.ts answers it).

export const root = defineOperation({
  operationId: "getApiRoot",
  method: "GET",
  path: "/api/v1",
  tag: "Discovery",
  access: "public",
  scope: undefined,
  parameters: {},
  output: apiRootSchema,
  statuses: [304, 405, 500],
  summary: "Describe the API",
  description:
    "Public discovery document: documentation, OpenAPI and API catalog addresses, the MCP endpoint, how to authenticate, the endpoints and the rate limit. Needs no key, exposes no organization data and is not counted against any key.",
  brief: "public description of the API (no key)",
  returns: "The API root.",
});
