import type { KeyedOperationName, OperationInput, OperationOutput } from "@/lib/operations/table";

/**
 * Where the MCP tools, resources and prompt get their data: the keyed operations of the table
 * (lib/operations/table.ts). The remote server answers them from the database for the calling key; the
 * stdio server calls the REST API. Either way an operation the key may not do throws an ApiError
 * (insufficient_scope, not_found, rate_limited…) that the MCP layer turns into a tool error.
 */
export interface SundownSource {
  answer<N extends KeyedOperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /**
   * The answer the request's admission already gave this tool call (its arguments parsed, its scope decided, its
   * data read with the key lookup), or undefined where there is none: the tool then parses and asks `answer`.
   */
  admittedAnswer?<N extends KeyedOperationName>(name: N): Promise<OperationOutput<N>> | undefined;
  /**
   * The organization's IANA time zone, in which `since`/`until` dates and the day resource count days; undefined
   * where the source cannot tell (then days are named as UTC days).
   */
  timeZone?(): Promise<string | undefined>;
}
