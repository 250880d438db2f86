import type { OperationSource } from "@/lib/digests/source";
import type { KeyedOperationName, OperationOutput } from "@/lib/operations/table";

/**
 * Where the MCP tools, resources and prompts get their data: the keyed operations, answered for the caller
 * (lib/digests/source.ts). An operation the key may not do throws an ApiError that the MCP layer turns into a tool
 * error.
 */
export interface SundownSource extends OperationSource {
  /**
   * The answer the request's admission already gave this tool call (its arguments parsed, its scope decided, its
   * data read with the key lookup), or undefined where there is none: the tool then parses and asks `answer`.
   */
  admittedAnswer?<N extends KeyedOperationName>(name: N): Promise<OperationOutput<N>> | undefined;
}
