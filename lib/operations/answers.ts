import { requireScope, type VerifiedKey } from "@/lib/auth/verify-api-key";
import type { ReadRequest } from "@/lib/data/organization-read";
import { reportListRead, reportRead } from "@/lib/data/reports";
import { teamRead } from "@/lib/data/team";
import { OPERATIONS, type KeyedOperationName, type OperationInput, type OperationOutput } from "./table";

// How each keyed operation is answered, for REST (lib/http/operation-route.ts) and the remote MCP server
// (lib/mcp/database-source.ts) alike: from the verified key alone, or by one read of the key's organization,
// which REST sends inside the key lookup.

export type Answer<N extends KeyedOperationName> =
  | { fromKey: (key: VerifiedKey) => OperationOutput<N> }
  | { read: (input: OperationInput<N>) => ReadRequest<OperationOutput<N>> };

export const ANSWERS = {
  identity: { fromKey: (key) => ({ organization: key.organization, scopes: key.scopes }) },
  list_reports: { read: ({ limit }) => reportListRead.with(limit) },
  get_report: { read: ({ id }) => reportRead.with(id) },
  team: { read: () => teamRead.with() },
} satisfies { [N in KeyedOperationName]: Answer<N> };

/** An operation answered for a verified key, on its own (the remote MCP server): scope first, then the data. */
export async function answerForKey<N extends KeyedOperationName>(
  key: VerifiedKey,
  name: N,
  input: OperationInput<N>,
): Promise<OperationOutput<N>> {
  requireScope(key, OPERATIONS[name].scope);
  const answer = ANSWERS[name] as Answer<N>;
  return "fromKey" in answer ? answer.fromKey(key) : answer.read(input).run(key.organization.id);
}
