import { StringDecoder } from "node:string_decoder";
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  parseJSONRPCMessage,
  ProtocolErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createRestSource } from "@/lib/api-client/rest-source";
import { readClientSettings } from "@/lib/api-client/settings";
import { verifyClientKey } from "@/lib/api-client/verify-key";
import { withBoundedErrorMessage, withEveryServedRevision } from "./errors";
import { invalidParamsResponse } from "./request-params";
import { createSundownServer } from "./server";

// `npx sundown mcp`: the four tools over stdio for desktop clients, backed by the REST API of a running Sundown
// (lib/api-client: its settings, its key check at start, the source that calls it).
// stdout belongs to the protocol; everything for people goes to stderr.

/** The ids to answer a line that is not one message with: its requests' ids (a batch's every request), else null. */
function requestIdsOf(value: unknown): (RequestId | null)[] {
  const idOf = (element: unknown): RequestId | undefined => {
    const { method, id } = (element ?? {}) as { method?: unknown; id?: unknown };
    return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? id : undefined;
  };
  const ids = (Array.isArray(value) ? value : [value]).map(idOf).filter((id) => id !== undefined);
  return ids.length > 0 ? ids : [null];
}

/**
 * The SDK's stdio transport, answering the lines it would drop in silence. It skips a line that is not JSON, and
 * reports one that is JSON but not one JSON-RPC message (a batch among them) only to the host, so the client waits
 * for an answer that never comes. This transport reads the same lines beside it and answers those as JSON-RPC 2.0
 * says: not JSON is -32700 Parse error (id null); anything else is -32600 Invalid Request, with the id of each
 * request it carries, else null. A batch is refused whole: batching left MCP in 2025-06-18, 2026-07-28 has none, and
 * the remote endpoint refuses batches too. A request whose params have the wrong shape is answered in one line
 * (lib/mcp/request-params.ts), and what it sends names every revision Sundown serves.
 */
class SundownStdioTransport extends StdioServerTransport {
  private readonly input = process.stdin;
  private readonly decoder = new StringDecoder("utf8");
  private partialLine = "";
  /** Requests whose params have the wrong shape, by id: the SDK's refusal of each is sent as one clear line. */
  private readonly malformedRequests = new Map<RequestId, JSONRPCErrorResponse>();

  override async start(): Promise<void> {
    this.input.on("data", this.readLines);
    await super.start();
  }

  override async close(): Promise<void> {
    // First: the SDK's close pauses stdin only when no one else listens, and the process exits once it is paused.
    this.input.off("data", this.readLines);
    await super.close();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    // Any answer ends its request's entry; only a refusal is replaced by the clearer line.
    const id = isJSONRPCErrorResponse(message) || isJSONRPCResultResponse(message) ? message.id : undefined;
    const clearer = id === undefined ? undefined : this.malformedRequests.get(id);
    if (id !== undefined) this.malformedRequests.delete(id);
    const answer = clearer && isJSONRPCErrorResponse(message) ? clearer : withEveryServedRevision(message);
    return super.send(withBoundedErrorMessage(answer));
  }

  private readonly readLines = (chunk: Buffer): void => {
    const lines = (this.partialLine + this.decoder.write(chunk)).split("\n");
    this.partialLine = lines.pop() ?? "";
    // A line this long ends the connection in the SDK's transport; it is not worth holding here.
    if (this.partialLine.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) this.partialLine = "";
    for (const line of lines) this.answerUnlessOneMessage(line.replace(/\r$/, ""));
  };

  private answerUnlessOneMessage(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.refuse([null], ProtocolErrorCode.ParseError, "Parse error: the line is not JSON.");
    }
    try {
      parseJSONRPCMessage(value);
      const malformed = invalidParamsResponse(value);
      if (malformed?.id !== undefined) this.malformedRequests.set(malformed.id, malformed);
      return;
    } catch {
      // answered below
    }
    const message = Array.isArray(value)
      ? "Invalid Request: JSON-RPC batches are not accepted: send one message per line (MCP 2025-06-18 and later never batch)."
      : 'Invalid Request: the line is not a JSON-RPC 2.0 message (a JSON object with "jsonrpc": "2.0").';
    this.refuse(requestIdsOf(value), ProtocolErrorCode.InvalidRequest, message);
  }

  private refuse(ids: (RequestId | null)[], code: number, message: string): void {
    for (const id of ids) {
      // JSON-RPC answers an unidentifiable request with id null, which the SDK's message type has no room for.
      const answer = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
      this.send(answer).catch(() => undefined);
    }
  }
}

/** Starts the stdio server and resolves once it is serving; throws ClientSettingsError when it cannot start. */
export async function runStdioServer(): Promise<void> {
  // Anything printed with console.log would corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const settings = readClientSettings();
  const source = createRestSource(settings);
  const identity = await verifyClientKey(source, settings.baseUrl);
  // Both eras: a 2025 client's initialize pins the connection to one server; a 2026-07-28 client's requests
  // each carry their own envelope. Either way the same server definition answers.
  const handle = serveStdio(() => createSundownServer(source, { base: settings.baseUrl }), {
    transport: new SundownStdioTransport(),
  });
  // The client hanging up ends stdin: close the server so the process can exit.
  process.stdin.once("end", () => void handle.close());
  process.stderr.write(
    `sundown mcp: serving ${identity.organization.name} (scopes: ${identity.scopes.join(", ") || "none"}) from ${settings.baseUrl} over stdio\n`,
  );
}
