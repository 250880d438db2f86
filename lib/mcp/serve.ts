import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
} from "@modelcontextprotocol/server";
import type { VerifiedKey } from "@/lib/admission/verify-api-key";
import { log } from "@/lib/log";
import { namesUnsafely, withBoundedErrorMessage, withEveryServedRevision } from "./errors";
import { invalidParamsResponse } from "./request-params";
import { createSundownServer, familiesFor, type PrimitiveFamily } from "./server";
import type { SundownSource } from "./source";
import type { McpHooks } from "./tools";

// Both MCP eras on one endpoint, from one server definition (createSundownServer):
// - 2026-07-28 (server/discover, _meta on every request, Mcp-Method/Mcp-Name headers): the SDK's handler, which
//   checks the envelope and the headers against the body and answers spec errors (-32020, -32022) itself;
// - 2025-era (initialize, then calls): a fresh server per request over the stateless transport, answering JSON
//   as before. The SDK's own legacy leg would answer with SSE streams; Sundown has never streamed.
// isLegacyRequest is the SDK's own classification, so the branch never disagrees with its handler.

/** The 2025 family (2025-03-26 to 2025-11-25, opened by initialize), or the 2026-07-28 revision. */
export type McpEra = "2025" | "2026-07-28";

/** Who is calling: the verified key, where their data comes from, and what to tell the host about failures. */
export interface McpCaller {
  key: VerifiedKey;
  /** The base URL the client addressed: the server's links and icons start with it. */
  base: string;
  source: SundownSource;
  hooks?: McpHooks;
}

/** A caller with what its message needs of the server (filled in by serveMcp). */
interface CallerWithNeeds extends McpCaller {
  families: readonly PrimitiveFamily[];
}

/**
 * The verified key as the SDK's AuthInfo, which it hands unchanged to the server's factory and every handler
 * (ctx.http.authInfo): the key's id as the client, its scopes. `token` is the one field it requires that Sundown
 * has no business filling: the secret is never handed on (only its hash is kept, and only by admission), so a
 * handler that would forward the caller's credential finds the empty string. What AuthInfo has no field for,
 * the key's organization, is its `extra`.
 */
function authInfoOf(key: VerifiedKey): AuthInfo {
  return { token: "", clientId: key.id, scopes: key.scopes, extra: { organization: key.organization } };
}

// The rest of what the factory needs (the data source, the base URL, the hooks) is not authentication: it is
// held for the request beside its AuthInfo, which the SDK passes through as the same object.
const callers = new WeakMap<AuthInfo, CallerWithNeeds>();

function callerOf(authInfo: AuthInfo | undefined): CallerWithNeeds {
  const caller = authInfo && callers.get(authInfo);
  if (!caller) throw new Error("MCP request without a caller: serve it through serveMcp().");
  return caller;
}

// The factory hands the handler the protocol-level Server inside the McpServer. Given the McpServer itself, the
// handler converts the called tool's input schema to JSON Schema on every tools/call, to look for `x-mcp-header`
// declarations, and asks the server for a scope challenge; a server built per request never reuses that
// conversion, and no Sundown primitive declares either (tests/unit/mcp-primitive-declarations.test.ts).
const modern = createMcpHandler(
  ({ authInfo }) => {
    const { source, base, hooks, families } = callerOf(authInfo);
    return createSundownServer(source, { base, hooks, families }).server;
  },
  {
    // The 2025 family is served by serveLegacy below. The default response mode ("auto") answers with one JSON
    // body unless a handler sends a notification first, which none of Sundown's do.
    legacy: "reject",
    // Reports only: requests the handler refuses (bad headers, unknown versions) are the client's to fix.
    onerror: (error) => log("debug", "mcp handler refused or failed a request", { error: error.message }),
  },
);

async function serveLegacy(
  request: Request,
  message: unknown,
  caller: CallerWithNeeds,
  authInfo: AuthInfo,
): Promise<Response> {
  const server = createSundownServer(caller.source, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: message, authInfo });
  } finally {
    await server.close();
  }
}

/** Answers one JSON-RPC message (already read from the request) in the era the client speaks. */
export async function serveMcp(
  request: Request,
  message: unknown,
  caller: McpCaller,
): Promise<{ era: McpEra; response: Response }> {
  const { era, response } = await serveInEra(request, message, caller);
  const malformed = invalidParamsResponse(message);
  // Only an answer to the message is replaced: a refusal of the request itself (a header, the revision) stands.
  if (malformed && response.ok) return { era, response: replaceBody(response, malformed) };
  // An error of the SDK's may quote a name the request sent: escaped and bounded (lib/mcp/errors.ts).
  return {
    era,
    response: namesUnsafely(message) ? await changingMessage(response, withBoundedErrorMessage) : response,
  };
}

async function serveInEra(request: Request, message: unknown, caller: McpCaller) {
  const needs = { ...caller, families: familiesFor((message as { method?: unknown } | null)?.method) };
  const authInfo = authInfoOf(caller.key);
  if (await isLegacyRequest(request, message)) {
    return { era: "2025" as const, response: await serveLegacy(request, message, needs, authInfo) };
  }
  callers.set(authInfo, needs);
  const response = await modern.fetch(request, { parsedBody: message, authInfo });
  return { era: "2026-07-28" as const, response: await namingEveryServedRevision(response) };
}

function replaceBody(response: Response, body: JSONRPCMessage): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

/** The handler's refusal of an unsupported revision (HTTP 400, -32022), naming the 2025 revisions served too. */
async function namingEveryServedRevision(response: Response): Promise<Response> {
  return response.status === 400 ? changingMessage(response, withEveryServedRevision) : response;
}

/** The response, with the JSON-RPC message it holds as `change` makes it (the same response when unchanged). */
async function changingMessage(
  response: Response,
  change: (message: JSONRPCMessage) => JSONRPCMessage,
): Promise<Response> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== "object" || body === null) return response;
  const changed = change(body as JSONRPCMessage);
  return changed === body ? response : replaceBody(response, changed);
}
