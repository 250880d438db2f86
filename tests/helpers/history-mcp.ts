import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Scope } from "@/lib/auth/scopes";
import { createApiKey } from "@/lib/data/api-keys";
import type { HistoryOrg } from "./history-org";
import { bearer } from "./keys";
import { connectMcp } from "./mcp-client";

/** The SDK's client for a history organization: with its key, or with a new key of other scopes. */
export async function connectHistoryMcp(org: HistoryOrg, scopes?: Scope[]): Promise<Client> {
  const key = scopes
    ? (await createApiKey({ organizationId: org.organization.id, name: "mcp-test", scopes, actor: { label: "test" } }))
        .key
    : org.key;
  return connectMcp(bearer(key) as Record<string, string>);
}

/** Runs `run` with a client of its own for the organization, and closes it. */
export async function withHistoryMcp<T>(
  org: HistoryOrg,
  scopes: Scope[] | undefined,
  run: (client: Client) => Promise<T>,
) {
  const client = await connectHistoryMcp(org, scopes);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}
