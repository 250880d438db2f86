import { ApiError } from "@/lib/errors";
import type { Parameter } from "./parameters";
import type { InputOf as Input, Operation } from "./table";

// An operation's input from either surface, judged parameter by parameter by the table's parse functions.
// Names the operation does not declare are ignored on both (a key in the query string still gets no access:
// keys are only read from headers).

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

/** REST: query parameters from the query string (each at most once), path parameters from the route. */
export function parseRestInput<O extends Operation>(
  operation: O,
  query: URLSearchParams,
  path: Record<string, unknown>,
): Input<O> {
  return parseEach(operation, (name, parameter) => {
    if (parameter.in === "path") return path[name];
    const values = query.getAll(name);
    if (values.length > 1) throw new ApiError("invalid_parameter", `${name} may be given only once; ${parameter.rule}`);
    const [text] = values;
    if (text === undefined) return undefined;
    return parameter.fromText ? parameter.fromText(text) : text;
  });
}

/** MCP: a tool call's arguments, JSON values by name. */
export function parseToolArguments<O extends Operation>(operation: O, args: Record<string, unknown>): Input<O> {
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
