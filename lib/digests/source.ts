import { ApiError } from "@/lib/errors";
import type { KeyedOperationName, OperationInput, OperationOutput } from "@/lib/operations/table";

/**
 * Where the digests get their data: the keyed operations of the table (lib/operations/table.ts), answered for one
 * caller. MCP's remote server answers them from the database for the calling key; its stdio server calls the REST
 * API. Either way an operation the key may not do throws an ApiError (insufficient_scope, not_found,
 * rate_limited…), which the surface reports.
 */
export interface OperationSource {
  answer<N extends KeyedOperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /**
   * The organization's IANA time zone, in which `since`/`until` dates and the day resource count days; undefined
   * where the source cannot tell (then days are named as UTC days).
   */
  timeZone?(): Promise<string | undefined>;
}

/** The organization's zone, or UTC where the source cannot tell. */
export async function timeZoneOf(source: OperationSource): Promise<string> {
  return (await source.timeZone?.()) ?? "UTC";
}

/** What `read` answers, or `none` when the key lacks the scope: what is offered (lists, completions) is then empty. */
export async function orNoneWithoutScope<T>(read: Promise<T>, none: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.code === "insufficient_scope") return none;
    throw error;
  }
}
