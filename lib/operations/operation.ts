import type { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import type { Parameter } from "./parameters";

// What an operation of API v1 is: one module per operation (lib/operations/<operation>.ts) declares how REST reaches
// it, the scope it needs, its inputs, its output, the statuses it can answer, how it is described, its MCP tool, its
// text for MCP and markdown for REST, and its OpenAPI example. lib/operations/table.ts lists the modules; the route
// handlers, the OpenAPI document, GET /api/v1's `endpoints`, the MCP tools, the /docs page, llms.txt, the security
// tests and the stdio package (a client of the REST API) all read that list. How a keyed operation is answered on
// the server sits beside it, in lib/operations/<operation>.answer.ts (lib/operations/answer.ts says what one is), so
// that the definitions carry none of the server's database code.

export type Status = 200 | 304 | 400 | 401 | 403 | 404 | 405 | 429 | 500 | 503;

export type Parameters = Record<string, Parameter<unknown>>;

/** A parameter's value as parsed. */
type ValueOf<Params extends Parameters, P extends keyof Params> = ReturnType<Params[P]["parse"]>;

/** Parsed input: parameters that may be absent are optional keys, so a caller writes only what it asks for. */
export type InputOfParameters<Params extends Parameters> = {
  [P in keyof Params as undefined extends ValueOf<Params, P> ? never : P]: ValueOf<Params, P>;
} & {
  [P in keyof Params as undefined extends ValueOf<Params, P> ? P : never]?: ValueOf<Params, P>;
};

export interface McpTool<Out extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  /** Written for a model choosing among tools; the tool adds what scope it needs (lib/mcp/tools.ts). */
  description: string;
  /** The result as text, for clients that show the model only text: the same facts as its structured content. */
  text(output: z.output<Out>): string;
}

export interface Operation<Params extends Parameters = Parameters, Out extends z.ZodType = z.ZodType> {
  operationId: string;
  method: "GET";
  /** The OpenAPI path template, e.g. /api/v1/reports/{id}. */
  path: string;
  tag: string;
  /** "public": no key, nothing of any organization; otherwise an API key is needed. */
  access: "public" | "key";
  /** The scope the key needs; undefined: any valid key. */
  scope: Scope | undefined;
  parameters: Params;
  /** Checks across parameters (e.g. since ≤ until), after each has been parsed; refusals are invalid_parameter. */
  check?(input: { [P in keyof Params]: ReturnType<Params[P]["parse"]> }): void;
  output: Out;
  /** Statuses beyond 200 and the keyed ones (public operations: beyond 200 alone). */
  statuses: readonly Status[];
  summary: string;
  /** OpenAPI's description; the scope's sentence is added from `scope`. */
  description: string;
  /** One line for llms.txt and the docs page. */
  brief: string;
  /** OpenAPI's description of the 200 answer. */
  returns: string;
  /** The MCP twin of a keyed operation. */
  tool?: McpTool<Out>;
  /** The answer as markdown, for the keyed operations that also answer Accept: text/markdown. */
  markdown?(output: z.output<Out>): string;
  /** The example answer the OpenAPI document shows (tests parse every one with the output schema). */
  example?: z.output<Out>;
}

/** A keyed operation: an MCP twin and an example are not optional (its answer: lib/operations/answers.ts). */
export interface KeyedDefinition<
  Params extends Parameters = Parameters,
  Out extends z.ZodType = z.ZodType,
> extends Operation<Params, Out> {
  access: "key";
  tool: McpTool<Out>;
  example: z.output<Out>;
}

/** Keeps an operation type-checked against its own parameters and output. */
export function defineOperation<const Params extends Parameters, Out extends z.ZodType>(
  operation: Operation<Params, Out> & { access: "public" },
): Operation<Params, Out> & { access: "public" } {
  return operation;
}

/** As defineOperation, for a keyed operation. */
export function defineKeyedOperation<const Params extends Parameters, Out extends z.ZodType>(
  operation: KeyedDefinition<Params, Out>,
): KeyedDefinition<Params, Out> {
  return operation;
}
