import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/mcp/route";
import { GET as serverCard } from "@/app/api/mcp/server-card/route";
import { ALL_SCOPES, bearer, mintKey } from "../helpers/keys";
import { connectMcp, MODERN_META } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// One endpoint, two protocol eras. The 2025-11-25 client opens with initialize; the 2026-07-28 client sends
// server/discover, then requests that each carry their protocol version and capabilities in _meta, with the
// Mcp-Method and Mcp-Name headers checked against the body. The SDK clients are tested in mcp-tools and
// mcp-resources (both eras); here the wire, raw, for what the clients would hide.

const MODERN = "2026-07-28";

let auth: Record<string, string>;

beforeAll(async () => {
  auth = bearer((await mintKey("acme", ALL_SCOPES)).key) as Record<string, string>;
});

function post(body: unknown, headers: Record<string, string> = {}) {
  return call(POST, "/api/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...auth, ...headers },
    body: JSON.stringify(body),
  });
}

/** A 2026-07-28 request with the headers a conforming client sends; `headers` overrides or removes (undefined). */
function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
) {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const sent: Record<string, string | undefined> = {
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": method,
    ...(name ? { "Mcp-Name": name } : {}),
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return post({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: MODERN_META } }, defined);
}

const initialize = (protocolVersion: string) =>
  post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });

describe("both eras on /api/mcp", () => {
  it("a 2025 initialize is answered in the 2025 era, as JSON, with the same server and instructions", async () => {
    const legacy = await initialize("2025-11-25");
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get("content-type")).toContain("application/json");
    expect(legacy.body.result).toMatchObject({
      protocolVersion: "2025-11-25",
      serverInfo: { name: "sundown", version: "1.0.0" },
    });
    const discover = await modern("server/discover");
    expect(discover.status).toBe(200);
    expect(discover.body.result.instructions).toBe(legacy.body.result.instructions);
    expect(discover.body.result.capabilities).toEqual(legacy.body.result.capabilities);
  });

  it("server/discover names 2026-07-28, the server and its capabilities, and claims no list changes", async () => {
    const { status, headers, body } = await modern("server/discover");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toContain("application/json");
    expect(body.result).toMatchObject({
      supportedVersions: [MODERN],
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "sundown", version: "1.0.0" } },
    });
    expect(body.result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(JSON.stringify(body.result.capabilities)).not.toContain('"listChanged":true');
  });

  it("an older 2025 revision is still answered in its own version", async () => {
    const { body } = await initialize("2025-06-18");
    expect(body.result.protocolVersion).toBe("2025-06-18");
  });
});

describe("2026-07-28 results: resultType, cache hints, a deterministic tools/list", () => {
  it("tools/list is the same list in the same order every time, shareable for an hour", async () => {
    const [first, second] = [await modern("tools/list"), await modern("tools/list")];
    expect(first.body.result.tools.map((t: { name: string }) => t.name)).toEqual([
      "whoami",
      "list_reports",
      "get_report",
      "get_briefing",
      "list_team",
    ]);
    expect(second.body.result.tools).toEqual(first.body.result.tools);
    expect(first.body.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
  });

  it("a resource read is the organization's data: private, reused for a minute at most", async () => {
    const { body } = await modern("resources/read", { uri: "sundown://reports/latest" });
    expect(body.result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
    expect(JSON.parse(body.result.contents[0].text).reports.length).toBeGreaterThan(0);
  });

  it("a tool call carries resultType and the same structured content as in the 2025 era", async () => {
    const { body } = await modern("tools/call", { name: "whoami", arguments: {} });
    expect(body.result.resultType).toBe("complete");
    expect(body.result.structuredContent.organization.name).toBe("Acme Robotics");
  });
});

describe("2026-07-28 header rules: refused with HTTP 400 and the specification's JSON-RPC error", () => {
  it.each([
    ["Mcp-Method missing", "tools/call", { name: "whoami", arguments: {} }, { "Mcp-Method": undefined }, -32020],
    [
      "Mcp-Method naming another method",
      "tools/call",
      { name: "whoami", arguments: {} },
      { "Mcp-Method": "tools/list" },
      -32020,
    ],
    [
      "Mcp-Name missing on a tool call",
      "tools/call",
      { name: "whoami", arguments: {} },
      { "Mcp-Name": undefined },
      -32020,
    ],
    [
      "Mcp-Name naming another tool",
      "tools/call",
      { name: "whoami", arguments: {} },
      { "Mcp-Name": "list_team" },
      -32020,
    ],
    [
      "Mcp-Name naming another resource",
      "resources/read",
      { uri: "sundown://reports/latest" },
      { "Mcp-Name": "sundown://x" },
      -32020,
    ],
    ["MCP-Protocol-Version missing", "tools/list", {}, { "MCP-Protocol-Version": undefined }, -32020],
  ] as const)("%s → 400, %i", async (_what, method, params, headers, code) => {
    const res = await modern(method, params, headers);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code } });
    expect(res.body.error.message).toMatch(/header/i);
  });

  it("an unsupported protocol version → 400, -32022, naming every revision served, both eras, newest first", async () => {
    const res = await post(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/list",
        params: { _meta: { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      },
      { "MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/list" },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32022 } });
    // A client that speaks only 2025 learns from this alone that initialize will do.
    const supported = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];
    expect(res.body.error.data).toEqual({ supported, requested: "2099-01-01" });
    // The same revisions the server card announces.
    const card = await call(serverCard, "/api/mcp/server-card");
    expect(card.body.remotes[0].supportedProtocolVersions).toEqual(supported);
  });

  it("the key is still checked first: no key is the contract's 401 with a Bearer challenge, in either era", async () => {
    const res = await call(POST, "/api/mcp", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/list",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: MODERN_META } }),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("a body that is not JSON-RPC at all is the contract's 400, whatever the headers claim", async () => {
    const res = await post({ hello: "world" }, { "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_parameter", message: expect.stringContaining("JSON-RPC") });
  });

  it("params of the wrong shape are one clear -32602 line in this era too", async () => {
    const res = await modern("tools/call", { name: "whoami", arguments: "x" });
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/^Invalid params for tools\/call: params\.arguments/);
    expect(res.body.error.message).not.toMatch(/[[\]{}\n]/);
  });
});

describe("the v2 SDK client on auto negotiation lands on 2026-07-28", () => {
  it("probes with server/discover and stays modern", async () => {
    const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    const { routeFetch } = await import("../helpers/mcp-client");
    const client = new Client({ name: "auto", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://localhost:3000/api/mcp"), {
        requestInit: { headers: auth },
        fetch: routeFetch,
      }),
    );
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const result = await client.callTool({ name: "list_team", arguments: {} });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("the 2025 client connects to the same endpoint", async () => {
    const client = await connectMcp(auth);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "sundown" });
    } finally {
      await client.close();
    }
  });
});
