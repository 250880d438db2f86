import { z } from "zod";
import { scopeSchema } from "@/lib/auth/scopes";
import { API_KEY_HEADER } from "@/lib/header-names";

/**
 * What GET /api/v1 lists under `endpoints`, by the operations' names (lib/operations/table.ts, a layer above, which
 * holds each to an operation): exactly the contract's four names (ApiRoot), which clients may check whole. Later
 * operations (the briefing) are found where every operation is: /openapi.json, /llms.txt and MCP.
 */
export const LISTED_ENDPOINTS = ["identity", "list_reports", "get_report", "team"] as const;

type ListedEndpoint = (typeof LISTED_ENDPOINTS)[number];

const endpointsSchema = z
  .object(Object.fromEntries(LISTED_ENDPOINTS.map((name) => [name, z.string()])) as Record<ListedEndpoint, z.ZodString>)
  .meta({ description: "Short name → `GET <path>`." });

export const apiRootSchema = z
  .object({
    name: z.string().meta({ description: "Product name." }),
    version: z
      .string()
      .meta({ description: "API version (semantic versioning); the major version is in the path prefix /api/v1." }),
    description: z.string(),
    documentation: z.url().meta({ description: "Human documentation: guide and API reference." }),
    openapi: z.url().meta({ description: "The OpenAPI 3.1 description of this API." }),
    api_catalog: z.url().meta({ description: "RFC 9727 API catalog (application/linkset+json)." }),
    mcp: z
      .object({
        endpoint: z.url().meta({ description: "MCP endpoint; accepts the same API keys and scopes." }),
        transport: z.literal("streamable-http"),
        server_card: z.url().meta({ description: "MCP server card." }),
      })
      .meta({ description: "The Model Context Protocol interface." }),
    authentication: z
      .object({
        type: z.literal("api_key"),
        scheme: z.literal("bearer"),
        format: z.string().meta({ description: "Pattern every key matches." }),
        header: z.string().meta({ description: "Header that carries the key, as `Bearer <API_KEY>`." }),
        alternative_header: z
          .literal(API_KEY_HEADER)
          .meta({ description: "Header that may carry the bare key instead." }),
        how_to_obtain: z.url().meta({ description: "Settings page where founders and leads create and revoke keys." }),
        scopes: z.array(scopeSchema).meta({ description: "Scopes a key can carry." }),
      })
      .meta({ description: "How to authenticate: every endpoint except GET /api/v1 needs a key." }),
    endpoints: endpointsSchema,
    rate_limit: z.string().meta({ description: "The per-key rate limit, in words." }),
  })
  .meta({ id: "ApiRoot", description: "Public description of the API: where its documents are and how to call it." });

export type ApiRoot = z.infer<typeof apiRootSchema>;
