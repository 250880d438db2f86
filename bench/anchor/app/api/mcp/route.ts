// The anchor's MCP route: the same keyed list (bench/anchor/keyed-list.ts) as a `list_reports` tool, served the way
// the SDK's documentation shows — a server per request, `createMcpHandler` for 2026-07-28, and for the 2025 era the
// stateless Streamable HTTP transport answering JSON. One tool, no output schema, the page as text and as
// structuredContent. What MCP costs over REST on bare Next.js with this SDK: the floor `npm run bench` sets
// Sundown's MCP ÷ REST beside.
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { keyedList, type KeyedPage } from "../../../keyed-list";

function listReportsServer(page: KeyedPage): McpServer {
  const server = new McpServer({ name: "anchor", version: "1.0.0" });
  server.registerTool("list_reports", { description: "The newest reports.", inputSchema: z.object({}) }, () => ({
    content: [{ type: "text", text: JSON.stringify(page) }],
    structuredContent: page as unknown as Record<string, unknown>,
  }));
  return server;
}

const pageOf = (authInfo?: AuthInfo) => authInfo?.extra?.page as KeyedPage;
const modern = createMcpHandler(({ authInfo }) => listReportsServer(pageOf(authInfo)), { legacy: "reject" });

export async function POST(request: Request): Promise<Response> {
  const page = await keyedList(request);
  if ("code" in page) return Response.json({ error: { code: page.code } }, { status: page.status });
  const message: unknown = await request.json();
  if (!(await isLegacyRequest(request, message))) {
    return modern.fetch(request, {
      parsedBody: message,
      authInfo: { token: "", clientId: "", scopes: [], extra: { page } },
    });
  }
  const server = listReportsServer(page);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}
