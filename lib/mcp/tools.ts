import type {
  CallToolResult,
  Icon,
  McpServer,
  StandardSchemaWithJSON,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { ApiError, toApiError } from "@/lib/errors";
import { parseToolArguments } from "@/lib/operations/input";
import {
  KEYED_OPERATIONS,
  type KeyedOperation,
  type McpTool,
  type Operation,
  publishedSchema,
} from "@/lib/operations/table";
import { RETRY_AFTER_HEADER } from "@/lib/header-names";
import { PROVENANCE_LINE, PROVENANCE_META } from "./provenance";
import type { SundownSource } from "./source";
import { scopeNote } from "./scope-note";

// The four tools: the MCP twins of the keyed operations (lib/operations/table.ts), served by both the remote
// server (database) and the stdio server (REST API). Name, description, input and output come from the table;
// arguments are judged by the same parse functions as REST's, so the same input gets the same answer and
// message on both surfaces. The text a tool's result carries is its operation's too (McpTool.text).

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition extends McpTool {
  operation: KeyedOperation;
  /** What tools/list publishes: the operation's parameters as one object. */
  input: ObjectSchema;
}

/**
 * The parameters' published schemas as a tool's input: optional where REST's are (a default applies), and no
 * others (`additionalProperties: false`), as parseToolArguments refuses any other name. A tool without
 * parameters publishes an empty object that says so, rather than the SDK's open one.
 */
function inputSchemaOf(operation: Operation): ObjectSchema {
  const shape = Object.fromEntries(
    Object.entries(operation.parameters).map(([name, parameter]) => [name, publishedSchema(parameter, "mcp")]),
  );
  return z.strictObject(shape);
}

/** What every tool does to the world, said once for all four: nothing, but each call is counted. */
const BEHAVIOUR_NOTE =
  "Read-only: changes nothing. Each call counts against the key's per-minute rate limit, shared with the REST API.";

export const TOOLS: ToolDefinition[] = KEYED_OPERATIONS.map((operation) => ({
  ...operation.tool,
  description: [operation.tool.description, operation.scope && scopeNote(operation.scope), BEHAVIOUR_NOTE]
    .filter(Boolean)
    .join(" "),
  operation,
  input: inputSchemaOf(operation),
}));

const READ_ONLY_ANNOTATIONS: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/**
 * The output schema as MCP needs it: a tool's outputSchema must be `type: "object"` at its root, and a schema
 * registered with an id would be emitted as a bare `$ref`. The same shape without the id keeps the contract.
 */
function mcpOutputSchema(schema: z.ZodType): ObjectSchema {
  return z.object((schema as ObjectSchema).shape);
}

/** The text a model reads when a call fails: the error code, the message, and what to do about it. */
export function describeToolError(error: ApiError): string {
  const parts = [`${error.code}: ${error.message}`];
  if (error.requiredScope) {
    parts.push(
      `required_scope: ${error.requiredScope}. Ask a founder or lead for a key with the ${error.requiredScope} scope (Settings → API keys).`,
    );
  }
  const retryAfter = error.headers[RETRY_AFTER_HEADER];
  if (retryAfter) parts.push(`Retry after ${retryAfter} seconds.`);
  return parts.join(" ");
}

function toolErrorResult(error: ApiError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: describeToolError(error) }] };
}

export interface McpHooks {
  /**
   * Called with every failed tool call, resource read or prompt (`primitive` names it), e.g. to log server-side
   * failures that a tool result or JSON-RPC error would otherwise hide.
   */
  onError?: (primitive: string, error: ApiError) => void;
}

/** What every tool, resource and prompt is registered with besides its source. */
export interface Registration {
  hooks: McpHooks;
  /** Absolute, from the request's base URL (lib/mcp/icon.ts). */
  icons: Icon[];
}

export async function callTool(
  tool: ToolDefinition,
  source: SundownSource,
  args: Record<string, unknown>,
  hooks: McpHooks = {},
): Promise<CallToolResult> {
  const { operation } = tool;
  try {
    // The request's own call was answered by its admission (arguments, scope, data); any other is parsed here.
    const answer =
      source.admittedAnswer?.(operation.name) ??
      source.answer(operation.name, parseToolArguments(operation, args) as never);
    // The output schema parses what leaves the service: a second whitelist, as in the REST pipeline.
    const data = operation.output.parse(await answer) as never;
    const text = (operation.tool.text as (data: unknown) => string)(data);
    return {
      content: [{ type: "text", text: `${PROVENANCE_LINE}\n\n${text}` }],
      structuredContent: data,
      _meta: PROVENANCE_META,
    };
  } catch (thrown) {
    const error = toApiError(thrown);
    hooks.onError?.(tool.name, error);
    return toolErrorResult(error);
  }
}
const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The tool of this name, if there is one. */
export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS_BY_NAME.get(name);
}

/**
 * The SDK turns a tool's schemas into JSON Schema as the tool is registered, and the remote route registers the
 * tools on a new server for every request: the same conversion on every call, for the same result each time.
 * The schema the SDK is given converts once per process and hands out that JSON Schema after; it checks values
 * as the zod schema does.
 */
function convertedOnce(schema: z.ZodType): StandardSchemaWithJSON {
  const standard = schema["~standard"] as StandardSchemaWithJSON["~standard"];
  const converted = new Map<string, Record<string, unknown>>();
  const once =
    (io: "input" | "output") =>
    (options: Parameters<StandardSchemaWithJSON["~standard"]["jsonSchema"]["input"]>[0]) => {
      const key = `${io} ${JSON.stringify(options)}`;
      if (!converted.has(key)) converted.set(key, standard.jsonSchema[io](options));
      return converted.get(key)!;
    };
  return { "~standard": { ...standard, jsonSchema: { input: once("input"), output: once("output") } } };
}

// Each tool's registration config, built once per process: the remote route registers the tools on a
// new server for every request, and only the handlers differ between requests.
export const TOOL_CONFIGS = new Map(
  TOOLS.map((tool) => [
    tool,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: judgedByTheHandler(convertedOnce(tool.input)),
      outputSchema: judgedByTheHandler(convertedOnce(mcpOutputSchema(tool.operation.output))),
      annotations: { title: tool.title, ...READ_ONLY_ANNOTATIONS },
    },
  ]),
);

/**
 * What tools/list publishes is the tool's schemas, but McpServer would also check values against them around the
 * handler. Arguments: it would refuse them in its own words ("Input validation error: …"), where the contract
 * answers an invalid argument as REST does (`invalid_parameter: …`, the same message for the same input), so the
 * handler judges them with REST's parse function (parseToolArguments in lib/operations/input.ts); arguments that
 * are not an object never get this far, the request's own schema refuses them. Output: callTool has just parsed it
 * with the same schema, and a second parse would only cost. So the schemas the SDK is given let every value through.
 */
function judgedByTheHandler(schema: StandardSchemaWithJSON): StandardSchemaWithJSON {
  return { "~standard": { ...schema["~standard"], validate: (value) => ({ value }) } };
}

export function registerTools(server: McpServer, source: SundownSource, { hooks, icons }: Registration): void {
  for (const tool of TOOLS) {
    server.registerTool(tool.name, { ...TOOL_CONFIGS.get(tool)!, icons }, (args) =>
      callTool(tool, source, args as Record<string, unknown>, hooks),
    );
  }
}
