import { inputExcerpt } from "@/lib/text/input-excerpt";
import { ApiError } from "@/lib/errors";
import type { Parameter } from "./parameters";
import { endpointOf, type InputOf as Input, type Operation } from "./table";

// An operation's input from either surface, judged parameter by parameter by the table's parse functions. A name
// the operation does not define is refused on both, before any value is judged: an agent that guesses a name
// (member_id for scope_target_id) would otherwise get unfiltered data and no hint. A key in the query string is
// such a name too, and gets no access: keys are only read from headers.

/**
 * The one refusal of a name nobody defined, for REST's query strings, MCP's tool arguments and the prompts' arguments:
 * it names the unknown one and lists the known ones, so the caller can correct itself (Stripe answers the same way).
 */
function unknownParameterError(
  name: string,
  takes: string,
  known: readonly string[],
  none = "no parameters",
): ApiError {
  // Echoed from the request: as it is when it is a plain identifier, else a quoted, escaped excerpt.
  const shown = /^[\w.-]{1,64}$/.test(name) ? name : inputExcerpt(name);
  return new ApiError("invalid_parameter", `Unknown parameter ${shown}: ${takes} takes ${known.join(", ") || none}.`);
}

/** Refuses the first of `names` that is not among `known`, with unknownParameterError. */
export function requireKnownNames(
  names: Iterable<string>,
  takes: string,
  known: readonly string[],
  none?: string,
): void {
  for (const name of names) if (!known.includes(name)) throw unknownParameterError(name, takes, known, none);
}

function parseEach<O extends Operation>(
  operation: O,
  valueOf: (name: string, parameter: Parameter<unknown>) => unknown,
): Input<O> {
  const input: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(operation.parameters)) {
    const value = parameter.parse(valueOf(name, parameter));
    if (value !== undefined) input[name] = value;
  }
  operation.check?.(input);
  return input as Input<O>;
}

/** The names REST reads from the query string (path parameters come from the route). */
function queryParameterNames(operation: Operation): string[] {
  return Object.entries(operation.parameters)
    .filter(([, parameter]) => parameter.in === "query")
    .map(([name]) => name);
}

/** REST: query parameters from the query string (each at most once), path parameters from the route. */
export function parseRestInput<O extends Operation>(
  operation: O,
  query: URLSearchParams,
  path: Record<string, unknown>,
): Input<O> {
  // A path parameter is not a query parameter: /api/v1/reports/{id} "takes no query parameters".
  requireKnownNames(query.keys(), endpointOf(operation), queryParameterNames(operation), "no query parameters");
  return parseEach(operation, (name, parameter) => {
    if (parameter.in === "path") return path[name];
    const values = query.getAll(name);
    if (values.length > 1) throw new ApiError("invalid_parameter", `${name} may be given only once; ${parameter.rule}`);
    const [text] = values;
    if (text === undefined) return undefined;
    return parameter.fromText ? parameter.fromText(text) : text;
  });
}

/**
 * MCP: a tool call's arguments, JSON values by name. Only `params.arguments` reaches here: the request's `_meta`
 * and the rest of its envelope sit beside it in `params`, so every name in it is one the caller chose.
 */
export function parseToolArguments<O extends Operation>(operation: O, args: Record<string, unknown>): Input<O> {
  requireKnownNames(
    Object.keys(args),
    operation.tool?.name ?? endpointOf(operation),
    Object.keys(operation.parameters),
  );
  return parseEach(operation, (name) => args[name]);
}

/** The REST path (and query) that asks for an operation with this input: what parseRestInput reads back. */
export function restPathOf<O extends Operation>(operation: O, input: Input<O>): string {
  const query = new URLSearchParams();
  let path = operation.path;
  for (const [name, parameter] of Object.entries(operation.parameters)) {
    const value = (input as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (parameter.in === "path") path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else query.set(name, parameter.toText ? parameter.toText(value) : String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
