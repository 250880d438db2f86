import { requireScope, type VerifiedKey } from "@/lib/admission/verify-api-key";
import type { ReadRequest } from "@/lib/data/organization-read";
import type { Answer, AnyAnswer, FromRead } from "./answer";
import { briefingAnswer } from "./briefing.answer";
import { getReportAnswer } from "./get-report.answer";
import { identityAnswer } from "./identity.answer";
import { listReportsAnswer } from "./list-reports.answer";
import { OPERATIONS, type KeyedOperationName, type OperationInput, type OperationOutput } from "./table";
import { teamAnswer } from "./team.answer";

// How each keyed operation is answered (each beside its operation's module, lib/operations/<operation>.answer.ts),
// for REST (lib/http/operation-route.ts) and the remote MCP server (lib/mcp/database-source.ts) alike: from the
// verified key alone, or by one read of the key's organization, which REST sends inside the key lookup, finished once
// the key is known.

/** Every keyed operation's answer, by its name in the table: an operation added without one does not compile. */
const ANSWERS = {
  identity: identityAnswer,
  list_reports: listReportsAnswer,
  get_report: getReportAnswer,
  briefing: briefingAnswer,
  team: teamAnswer,
} satisfies { [N in KeyedOperationName]: Answer<N> };

function answerOf(name: KeyedOperationName): AnyAnswer {
  return ANSWERS[name] as AnyAnswer;
}

/** A read's result as the operation's output, for the key that asked. */
function finishRead<N extends KeyedOperationName>(
  answer: FromRead,
  result: unknown,
  input: OperationInput<N>,
  key: VerifiedKey,
): OperationOutput<N> {
  const finished = answer.finish ? answer.finish(result, input, key) : result;
  return finished as OperationOutput<N>;
}

/**
 * An operation answered for a verified key on its own, outside the request's admission (the remote MCP server's
 * resources and prompts): its scope first, then the data.
 */
export async function answerForKey<N extends KeyedOperationName>(
  key: VerifiedKey,
  name: N,
  input: OperationInput<N>,
): Promise<OperationOutput<N>> {
  requireScope(key, OPERATIONS[name].scope);
  const answer = answerOf(name);
  if ("fromKey" in answer) return answer.fromKey(key) as OperationOutput<N>;
  return finishRead(answer, await answer.read(input).run(key.organization.id), input, key);
}

/** An operation's answer prepared before the key is known, so that its read can travel with the key lookup. */
export interface PreparedAnswer<N extends KeyedOperationName = KeyedOperationName> {
  name: N;
  input: OperationInput<N>;
  read?: ReadRequest<unknown>;
}

export function prepareAnswer<N extends KeyedOperationName>(name: N, input: OperationInput<N>): PreparedAnswer<N> {
  const answer = answerOf(name);
  return { name, input, read: "read" in answer ? answer.read(input) : undefined };
}

/**
 * A prepared answer for a key admission has verified and found to have the operation's scope
 * (lib/admission/admit.ts), from the data its read brought (null when it found nothing).
 */
export function finishPrepared<N extends KeyedOperationName>(
  { name, input, read }: PreparedAnswer<N>,
  key: VerifiedKey,
  data: unknown,
): OperationOutput<N> {
  const answer = answerOf(name);
  if ("fromKey" in answer) return answer.fromKey(key) as OperationOutput<N>;
  if (!read || data === undefined) throw new Error(`${name} was admitted without its read's data`);
  return finishRead(answer, read.toBody(data), input, key);
}
