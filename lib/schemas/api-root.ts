import { z } from "zod";
import { scopeSchema } from "@/lib/auth/scopes";

export const apiRootSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    description: z.string(),
    documentation: z.url(),
    openapi: z.url(),
    api_catalog: z.url(),
    mcp: z.object({
      endpoint: z.url(),
      transport: z.literal("streamable-http"),
      server_card: z.url(),
    }),
    authentication: z.object({
      type: z.literal("api_key"),
      scheme: z.literal("bearer"),
      format: z.string().meta({ description: "Pattern every key matches." }),
      header: z.string(),
      alternative_header: z.literal("X-API-Key"),
      how_to_obtain: z.url(),
      scopes: z.array(scopeSchema),
    }),
    endpoints: z.object({
      identity: z.string(),
      list_reports: z.string(),
      get_report: z.string(),
      team: z.string(),
    }),
    rate_limit: z.string(),
  })
  .meta({ id: "ApiRoot" });

export type ApiRoot = z.infer<typeof apiRootSchema>;
