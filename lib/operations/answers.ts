import { requireScope, type VerifiedKey } from "@/lib/admission/verify-api-key";
import type { ReadRequest } from "@/lib/data/organization-read";
import { reportPage, reportRead, type ReportPage } from "@/lib/data/reports";
import { briefingRead } from "@/lib/data/briefing";
import { teamRead } from "@/lib/data/team";
import { ApiError } from "@/lib/errors";
import type { Briefing } from "@/lib/schemas/briefing";
import type { Report } from "@/lib/schemas/reports";
import type { TeamList } from "@/lib/schemas/team";
import { encodeCursor, isAuthentic } from "./cursor";
import { CURSOR_RULE } from "./parameters";
import {
  CURSOR_FILTERS_RULE,
  OPERATIONS,
  reportFiltersDigest,
  reportFiltersOf,
  type KeyedOperationName,
  type OperationInput,
  type OperationOutput,
} from "./table";

// How each keyed operation is answered, for REST (lib/http/operation-route.ts) and the remote MCP server
// (lib/mcp/database-source.ts) alike: from the verified key alone, or by one read of the key's organization,
// which REST sends inside the key lookup, finished once the key is known.

interface FromKey<N extends KeyedOperationName> {
  fromKey(key: VerifiedKey): OperationOutput<N>;
}

interface FromRead<N extends KeyedOperationName, Result = unknown> {
  read(input: OperationInput<N>): ReadRequest<Result>;
  /** The read's result as the operation's output, for this key (omitted: the result is the output). */
  finish?(result: Result, input: OperationInput<N>, key: VerifiedKey): OperationOutput<N>;
}

export type Answer<N extends KeyedOperationName> = FromKey<N> | FromRead<N>;

/** Keeps a read and its finish type-checked against each other. */
function fromRead<N extends KeyedOperationName, Result>(answer: FromRead<N, Result>): FromRead<N> {
  return answer as FromRead<N>;
}

export const ANSWERS = {
  identity: { fromKey: (key: VerifiedKey) => ({ organization: key.organization, scopes: key.scopes }) },
  list_reports: fromRead<"list_reports", ReportPage>({
    read: (input) => reportPage(input.limit, reportFiltersOf(input), input.cursor, input.expand),
    finish: (page, input, key) => {
      // Only now is the organization known: a cursor of another organization, or not signed here, is refused.
      if (input.cursor && (!isAuthentic(input.cursor) || input.cursor.organizationId !== key.organization.id)) {
        throw new ApiError("invalid_parameter", CURSOR_RULE);
      }
      if (input.cursor && input.cursor.filters !== reportFiltersDigest(input, key.timeZone)) {
        throw new ApiError("invalid_parameter", CURSOR_FILTERS_RULE);
      }
      const last = page.reports.at(-1);
      const next =
        page.more && last
          ? encodeCursor({
              organizationId: key.organization.id,
              filters: reportFiltersDigest(input, key.timeZone),
              generatedAt: last.generated_at,
              id: last.id,
            })
          : null;
      return {
        reports: page.reports,
        count: page.reports.length,
        next_cursor: next,
        ...(page.cut && { truncated: true }),
      };
    },
  }),
  get_report: fromRead<"get_report", Report>({ read: ({ id }) => reportRead.with(id) }),
  briefing: fromRead<"briefing", Briefing>({
    read: ({ limit, since, until, scope, scope_target_id }) =>
      briefingRead(limit, { since, until, scope, scope_target_id }),
  }),
  team: fromRead<"team", TeamList>({ read: ({ role, active }) => teamRead.with(role, active) }),
} satisfies { [N in KeyedOperationName]: Answer<N> };

/** A read's result as the operation's output, for the key that asked. */
function finishRead<N extends KeyedOperationName>(
  answer: FromRead<N>,
  result: unknown,
  input: OperationInput<N>,
  key: VerifiedKey,
): OperationOutput<N> {
  return answer.finish ? answer.finish(result, input, key) : (result as OperationOutput<N>);
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
  const answer = ANSWERS[name] as Answer<N>;
  if ("fromKey" in answer) return answer.fromKey(key);
  return finishRead(answer, await answer.read(input).run(key.organization.id), input, key);
}

/** An operation's answer prepared before the key is known, so that its read can travel with the key lookup. */
export interface PreparedAnswer<N extends KeyedOperationName = KeyedOperationName> {
  name: N;
  input: OperationInput<N>;
  read?: ReadRequest<unknown>;
}

export function prepareAnswer<N extends KeyedOperationName>(name: N, input: OperationInput<N>): PreparedAnswer<N> {
  const answer = ANSWERS[name] as Answer<N>;
  return { name, input, read: "read" in answer ? answer.read(input) : undefined };
}

/**
 * A prepared answer for a key admission has verified and found to have the operation's scope
 * (lib/http/admit-key.ts), from the data its read brought (null when it found nothing).
 */
export function finishPrepared<N extends KeyedOperationName>(
  { name, input, read }: PreparedAnswer<N>,
  key: VerifiedKey,
  data: unknown,
): OperationOutput<N> {
  const answer = ANSWERS[name] as Answer<N>;
  if ("fromKey" in answer) return answer.fromKey(key);
  if (!read || data === undefined) throw new Error(`${name} was admitted without its read's data`);
  return finishRead(answer, read.toBody(data), input, key);
}
