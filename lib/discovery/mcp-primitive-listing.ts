import type {
  Icon,
  Prompt,
  Resource,
  ResourceTemplateType,
  StandardSchemaWithJSON,
  Tool,
} from "@modelcontextprotocol/server";
import { iconsAt } from "@/lib/mcp/icon";
import { resourceMetadata, type PromptDefinition } from "@/lib/mcp/primitive-definitions";
import { LEAD_BRIEF_PROMPT, PERIOD_ROLLUP_PROMPT } from "@/lib/mcp/prompts";
import { LATEST_REPORTS_RESOURCE, REPORT_RESOURCE_TEMPLATE, REPORTS_OF_DAY_TEMPLATE } from "@/lib/mcp/resources";
import { TOOL_CONFIGS, TOOLS } from "@/lib/mcp/tools";

// The primitives as a connected client lists them, built from the definitions createSundownServer registers
// rather than by asking a server: the server card publishes them. McpServer's list handlers emit what each
// primitive was registered with, keys in their order, and convert its schemas with a function the SDK keeps to
// itself (standardSchemaToJsonSchema); the conversion below is that function's, for the schemas Sundown has.
// tests/integration/mcp-server-card.test.ts holds every list to what a live client reads.

/** The JSON Schema draft the SDK converts every schema to. */
const JSON_SCHEMA_TARGET = "draft-2020-12";

/** An input schema as tools/list and prompts/list convert it: `type: "object"` first, whatever the schema says. */
function inputJsonSchema(schema: StandardSchemaWithJSON) {
  return { type: "object" as const, ...schema["~standard"].jsonSchema.input({ target: JSON_SCHEMA_TARGET }) };
}

/** An output schema as tools/list converts it: as it is, since each of ours says `type: "object"` at its root. */
function outputJsonSchema(schema: StandardSchemaWithJSON) {
  return schema["~standard"].jsonSchema.output({ target: JSON_SCHEMA_TARGET });
}

function listTools(icons: Icon[]): Tool[] {
  return TOOLS.map((tool) => {
    const { title, description, inputSchema, outputSchema, annotations } = TOOL_CONFIGS.get(tool)!;
    return {
      name: tool.name,
      title,
      description,
      inputSchema: inputJsonSchema(inputSchema),
      annotations,
      icons,
      outputSchema: outputJsonSchema(outputSchema),
    };
  });
}

// The reports the templates list are the organization's and need a key; listed without one, they are none.
function listResources(icons: Icon[]): Resource[] {
  const { uri, name } = LATEST_REPORTS_RESOURCE;
  return [{ uri, name, ...resourceMetadata(LATEST_REPORTS_RESOURCE, icons) }];
}

function listResourceTemplates(icons: Icon[]): ResourceTemplateType[] {
  return [REPORT_RESOURCE_TEMPLATE, REPORTS_OF_DAY_TEMPLATE].map((template) => ({
    name: template.name,
    uriTemplate: template.uriTemplate,
    ...resourceMetadata(template, icons),
  }));
}

/** A prompt's arguments as prompts/list names them: one per property of its schema. */
function promptArguments(schema: StandardSchemaWithJSON): Prompt["arguments"] {
  const { properties = {}, required = [] } = inputJsonSchema(schema) as {
    properties?: Record<string, { description?: string }>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    description: property.description,
    required: required.includes(name),
  }));
}

function listPrompts(icons: Icon[]): Prompt[] {
  const prompts: PromptDefinition[] = [LEAD_BRIEF_PROMPT, PERIOD_ROLLUP_PROMPT];
  return prompts.map(({ name, title, description, argsSchema }) => ({
    name,
    title,
    description,
    arguments: promptArguments(argsSchema),
    icons,
  }));
}

/** What tools/list, resources/list, resources/templates/list and prompts/list answer a client of `base`. */
export function listedPrimitives(base: string) {
  const icons = iconsAt(base);
  return {
    tools: listTools(icons),
    resources: listResources(icons),
    resourceTemplates: listResourceTemplates(icons),
    prompts: listPrompts(icons),
  };
}
