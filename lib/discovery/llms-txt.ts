import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/auth/scopes";
import { ERROR_CODES, ERROR_STATUS } from "@/lib/errors";
import { endpointOf, KEYED_OPERATIONS, OPERATIONS, type Operation } from "@/lib/operations/table";
import stdioPackage from "@/packages/mcp-stdio/package.json";
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";
import { discoveryUrls } from "@/lib/public-urls";
import { rateLimitStatement } from "./api-root";
import { skillUrl } from "./agent-skills";

// /llms.txt (llmstxt.org): a short markdown guide for agents, built from the same constants as the API root.

function endpointLine(operation: Operation): string {
  const needs = operation.scope ? ` (needs \`${operation.scope}\`)` : "";
  return `- \`${endpointOf(operation)}\`: ${operation.brief}${needs}.`;
}

/** The operations that answer `Accept: text/markdown` too, as the docs name them. */
const MARKDOWN_ENDPOINTS = KEYED_OPERATIONS.filter((operation) => operation.markdown)
  .map((operation) => `\`${endpointOf(operation)}\``)
  .join(", ");

/** Every error code with its status; llms-full.txt adds when each is answered. */
const ERROR_LIST = ERROR_CODES.map((code) => `\`${code}\` (${ERROR_STATUS[code]})`).join(", ");

/** The events, grouped by the scope a key needs to read what they carry. */
const EVENT_LIST = SCOPES.flatMap((scope) => {
  const types = WEBHOOK_EVENT_TYPES.filter((type) => WEBHOOK_EVENTS[type].scope === scope);
  return types.length === 0
    ? []
    : [`${types.map((type) => `\`${type}\``).join(", ")} (data a \`${scope}\` key could read)`];
}).join(", ");

/** `get_report` {id}: a tool and its arguments, optional ones marked. */
function toolSynopsis(operation: Operation): string {
  const args = Object.entries(operation.parameters).map(
    ([name, parameter]) => `${name}${parameter.optional ? "?" : ""}`,
  );
  return `\`${operation.tool!.name}\`${args.length ? ` {${args.join(", ")}}` : ""}`;
}

export function buildLlmsTxt(base: string): string {
  const urls = discoveryUrls(base);
  const scopes = SCOPES.map((s) => `\`${s}\` (${SCOPE_DESCRIPTIONS[s].toLowerCase()})`).join(", ");
  return `# Sundown

> Sundown is a read-only API over one organization's end-of-day reports (what shipped, who was silent, what is slipping, blockers, KPI status) and its team roster, for AI agents and scripts. REST at ${urls.apiRoot} and MCP at ${urls.mcpEndpoint}, with the same organization-scoped API keys.

Every call is an HTTP GET that returns JSON; nothing can be created, changed or deleted. A key only sees its own organization. Email addresses and chat identifiers are never returned.

## Authentication

- Send \`Authorization: Bearer <API_KEY>\` (or \`X-API-Key: <API_KEY>\`) on every request except \`GET /api/v1\`. Keys look like \`sdn_sk_…\` (45 characters).
- A human founder or lead creates keys at ${urls.settings}; the secret is shown once. There is no OAuth flow and no dynamic client registration.
- Scopes: ${scopes}. \`GET /api/v1/me\` works with any valid key and shows its organization and scopes.
- Missing or invalid key: 401 \`unauthorized\`. Valid key without the scope: 403 \`insufficient_scope\` with \`required_scope\`.

## Endpoints

${[...KEYED_OPERATIONS, OPERATIONS.root].map(endpointLine).join("\n")}

As markdown with \`Accept: text/markdown\`: ${MARKDOWN_ENDPOINTS} (for a model, the report's content fenced as data); JSON stays the default, errors stay JSON.

## MCP

- Streamable HTTP at ${urls.mcpEndpoint} with the header \`Authorization: Bearer <API_KEY>\`; server card at ${urls.mcpServerCard}.
- Local stdio: \`SUNDOWN_URL=${base} SUNDOWN_API_KEY=<API_KEY> npx -y ${stdioPackage.name}\` (an npm package that calls this server's REST API with the key).
- Tools: ${KEYED_OPERATIONS.map(toolSynopsis).join(", ")}; same scopes as REST. A tool called without its scope returns an error naming the scope.

## Errors and limits

- Errors are JSON: \`{"error": "<code>", "message": "…", "request_id": "…"}\`; codes: ${ERROR_LIST} (when each is answered: llms-full.txt, below).
- Rate limit: ${rateLimitStatement()} Responses carry \`RateLimit\` and \`RateLimit-Policy\` headers; REST and MCP share one budget per key.
- Keyed responses carry a strong \`ETag\`; send \`If-None-Match\` to get 304.

## Webhooks

- Founders and leads can have Sundown POST signed events (Standard Webhooks: verify \`webhook-signature\` over the raw body; at least once, in any order, deduplicate by \`webhook-id\`) to endpoints they register in Settings → Webhooks; keys cannot register endpoints.
- Events: ${EVENT_LIST}; \`ping\` on demand. Bodies \`{id, type, timestamp, organization_id, data}\` are under \`webhooks\` in the OpenAPI document; [webhooks guide](${urls.documentation}#webhooks).

## Docs

- [Guide and API reference](${urls.documentation}): quick start, authentication, errors and limits, MCP setup.
- [OpenAPI 3.1](${urls.openapi}): the machine-readable description, generated from the server's schemas.
- [API catalog](${urls.apiCatalog}): RFC 9727 linkset.
- [llms-full.txt](${urls.llmsFullTxt}): this guide with every operation's parameters, statuses and fields; \`/docs\` answers it to \`Accept: text/markdown\`.
- [Agent skill](${skillUrl(base)}): weekly rollup, what slipped for one person, who has been silent ([index](${urls.agentSkills})).
`;
}
