import { z } from "zod";
import { synopsisOf } from "@/lib/operations/parameters";
import { endpointOf, KEYED_OPERATIONS, OPERATIONS, statusesOf, type Operation } from "@/lib/operations/table";
import { discoveryUrls } from "@/lib/public-urls";
import { ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_STATUS } from "@/lib/errors";
import { buildLlmsTxt } from "./llms-txt";

// /llms-full.txt, and /docs as markdown (Accept: text/markdown, or /docs.md): the whole guide in one file.
// It is llms.txt followed by the reference of every operation and every error code, all read from the
// operations table and the error table (lib/errors.ts), so it says what the /docs page and the OpenAPI document say.

/** The top-level fields of an operation's answer, as its output schema names them. */
function responseFields(operation: Operation): string[] {
  const schema = z.toJSONSchema(operation.output, { io: "output", unrepresentable: "any" }) as {
    $ref?: string;
    $defs?: Record<string, { properties?: object }>;
    properties?: object;
  };
  const root = schema.$ref ? schema.$defs?.[schema.$ref.split("/").pop()!] : schema;
  return Object.keys(root?.properties ?? {});
}

function accessOf(operation: Operation): string {
  if (operation.access === "public") return "no key";
  return operation.scope ? `a key with \`${operation.scope}\`` : "any valid key";
}

function operationSection(operation: Operation): string {
  const parameters = Object.entries(operation.parameters).map(
    ([name, parameter]) => `- \`${synopsisOf(name, parameter)}\` (${parameter.in}): ${parameter.rule}`,
  );
  const lines = [
    `### ${endpointOf(operation)}`,
    "",
    `${operation.summary} (\`${operation.operationId}\`). ${operation.description}`,
    "",
    `- Needs: ${accessOf(operation)}.`,
    ...(operation.tool ? [`- MCP tool: \`${operation.tool.name}\`. ${operation.tool.description}`] : []),
    `- Statuses: ${statusesOf(operation).join(", ")}.`,
    `- Answer: ${operation.returns} Fields: ${responseFields(operation)
      .map((field) => `\`${field}\``)
      .join(", ")}.`,
  ];
  if (parameters.length) lines.push("- Parameters:", ...parameters.map((line) => `  ${line}`));
  return lines.join("\n");
}

export function buildLlmsFullTxt(base: string): string {
  const urls = discoveryUrls(base);
  const errors = ERROR_CODES.map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_DESCRIPTIONS[code]} |`);
  return `${buildLlmsTxt(base)}
## Operations

Every operation in full; the machine-readable description is ${urls.openapi}.

${[OPERATIONS.root, ...KEYED_OPERATIONS].map(operationSection).join("\n\n")}

## Error codes

| Status | error | When |
| --- | --- | --- |
${errors.join("\n")}
`;
}
