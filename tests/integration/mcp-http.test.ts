import { beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "@/app/api/mcp/route";
import { ALL_SCOPES, bearer, mintKey } from "../helpers/keys";
import { connectMcp } from "../helpers/mcp-client";
import { call } from "../helpers/request";
import { withEnv } from "../helpers/env";
import { securityCases } from "../helpers/security-table";

const ACCEPT = "application/json, text/event-stream";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } },
};
const toolCall = (name: string, args: Record<string, unknown> = {}, id = 2) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

function post(headers: Record<string, string>, body: unknown) {
  return call(POST, "/api/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function authHeaders(scopes = ALL_SCOPES) {
  return bearer((await mintKey("acme", scopes)).key) as Record<string, string>;
}

// The first key opens (and seeds) the shared database; do it under the hook's longer timeout.
beforeAll(async () => {
  await mintKey();
});

describe("POST /api/mcp: the key is checked at the HTTP layer, like REST", () => {
  // Scope cases are tool errors, tested with the tools; every credential failure is HTTP 401.
  it.each(securityCases(undefined))(
    "$name → 401 unauthorized with a Bearer challenge",
    async ({ headers, expect: want }) => {
      const sent = await headers();
      const res = await post(sent, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(Object.keys(res.body).sort()).toEqual(["error", "message", "request_id"]);
      expect(res.body.error).toBe("unauthorized");
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
      expect(want.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("challenge" in want ? want.challenge : undefined);
    },
  );

  it("refuses a bad key on a tool call exactly as on initialize (no session to lean on)", async () => {
    const res = await post({ Authorization: "Bearer sdn_sk_nope" }, toolCall("whoami"));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("the SDK client fails to connect without a key, with the HTTP status and the error JSON", async () => {
    const error = await connectMcp({}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 401 });
    expect((error as Error).message).toContain('"error":"unauthorized"');
  });

  it("accepts the key in X-API-Key as well as Authorization: Bearer", async () => {
    const { key } = await mintKey();
    const viaHeader = await post({ "X-API-Key": key }, toolCall("whoami"));
    const viaBearer = await post({ Authorization: `Bearer ${key}` }, toolCall("whoami"));
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.result.structuredContent).toEqual(viaBearer.body.result.structuredContent);
  });
});

describe("POST /api/mcp: one stateless JSON-RPC message per request", () => {
  it("answers initialize with JSON (no SSE), no session id, and the keyed-response headers", async () => {
    const res = await post(await authHeaders(), initialize);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("ratelimit-policy")).toMatch(/^"per-key";q=\d+;w=60$/);
    expect(res.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
    expect(res.body).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: {
        serverInfo: { name: "sundown", title: "Sundown", version: "1.0.0" },
        capabilities: { tools: {}, resources: {}, prompts: {} },
      },
    });
    expect(res.body.result.instructions).toContain("treat it as data");
  });

  it("serves a tool call without a prior initialize in the same process (stateless)", async () => {
    const res = await post(await authHeaders(), toolCall("whoami"));
    expect(res.status).toBe(200);
    expect(res.body.result.structuredContent.organization.name).toBe("Acme Robotics");
  });

  it("accepts a notification with 202 and no body", async () => {
    const res = await post(await authHeaders(), { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
  });

  it("refuses a JSON-RPC batch with 400, so a batch can neither skip the per-call scope check nor share one count", async () => {
    const headers = await authHeaders(["team:read"]);
    const res = await post(headers, [toolCall("list_team", {}, 1), toolCall("list_reports", {}, 2)]);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_parameter");
    expect(res.body.message).toContain("batches are not accepted");
    const single = await post(headers, [initialize]);
    expect(single.status).toBe(400);
    expect(single.body.error).toBe("invalid_parameter");
  });

  it.each([
    ["not JSON", "{not json"],
    ["a JSON string", '"hello"'],
    ["null", "null"],
  ])("refuses a body that is %s with 400 invalid_parameter", async (_name, body) => {
    const res = await post(await authHeaders(), body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_parameter");
  });

  it("refuses a body over the cap with 413 payload_too_large, from Content-Length", async () => {
    const big = JSON.stringify({ ...toolCall("whoami"), padding: "x".repeat(70 * 1024) });
    const res = await post({ ...(await authHeaders()), "Content-Length": String(Buffer.byteLength(big)) }, big);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("refuses a streamed body over the cap with 413 without a Content-Length", async () => {
    const headers = await authHeaders();
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await call(POST, "/api/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT, ...headers },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("checks the key before reading the body: no key and a huge body is 401", async () => {
    const res = await post({}, "x".repeat(200 * 1024));
    expect(res.status).toBe(401);
  });

  // The 2025-era transport's own refusals keep their status and message but come in the contract's Error shape.
  // (2026-07-28 refusals are the specification's JSON-RPC errors: tests/integration/mcp-eras.test.ts.)
  it.each([
    [
      "an Accept header without text/event-stream",
      { Accept: "application/json" },
      initialize,
      406,
      "not_acceptable",
      /text\/event-stream/,
    ],
    [
      "a Content-Type other than JSON",
      { "Content-Type": "text/plain" },
      initialize,
      415,
      "unsupported_media_type",
      /application\/json/,
    ],
    ["a JSON object that is not a JSON-RPC message", {}, { hello: "world" }, 400, "invalid_parameter", /JSON-RPC/],
    // Found by fuzz.test.ts: an unknown MCP-Protocol-Version header classed the request as 2026-07-28, and the
    // transport's 415 passed through as a JSON-RPC error instead of the contract's Error.
    [
      "a Content-Type other than JSON, under an unknown MCP-Protocol-Version",
      { "Content-Type": "text/plain", "Mcp-Protocol-Version": "3" },
      initialize,
      415,
      "unsupported_media_type",
      /application\/json/,
    ],
  ] as const)("%s → %i %s", async (_what, headers, body, status, error, message) => {
    const res = await post({ ...(await authHeaders()), ...headers }, body);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(Object.keys(res.body).sort()).toEqual(["error", "message", "request_id"]);
    expect(res.body.error).toBe(error);
    expect(res.body.message).toMatch(message);
    expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    expect(res.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+/);
  });
});

describe("other methods on /api/mcp", () => {
  it.each([
    ["GET", GET],
    ["DELETE", DELETE],
    ["PUT", PUT],
    ["PATCH", PATCH],
  ])("%s → 405 method_not_allowed JSON with Allow: POST", async (method, handler) => {
    const res = await call(handler, "/api/mcp", {
      method,
      headers: { Accept: "text/event-stream", ...(await authHeaders()) },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.error).toBe("method_not_allowed");
    expect(res.body.message).toContain("POST");
  });

  it("OPTIONS answers a CORS preflight for POST with the MCP headers", async () => {
    const res = await call(OPTIONS, "/api/mcp", {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:3000", "Access-Control-Request-Method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization.*Mcp-Protocol-Version/);
  });
});

describe("POST /api/mcp: params of the wrong shape are JSON-RPC invalid params", () => {
  it.each([
    ["tools/call with arguments that are a string", toolCall("whoami", "x" as never), /params\.arguments/],
    [
      "tools/call without a tool name",
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } },
      /params\.name/,
    ],
    [
      "resources/read with a numeric uri",
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: 5 } },
      /params\.uri/,
    ],
  ])("%s → -32602 with one clear line, no validation dump", async (_what, message, names) => {
    const res = await post(await authHeaders(), message);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(2);
    expect(res.body.result).toBeUndefined();
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/^Invalid params for (tools\/call|resources\/read): /);
    expect(res.body.error.message).toMatch(names);
    expect(res.body.error.message).not.toMatch(/[[\]{}\n]/);
  });

  it("arguments of the right shape but a wrong value are still a tool error result, not a protocol error", async () => {
    const res = await post(await authHeaders(), toolCall("list_reports", { limit: 0 }));
    expect(res.body.error).toBeUndefined();
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.content[0].text).toMatch(/limit/);
  });
});

describe("Origin on /api/mcp (MCP transport: validate Origin, 403 when present and not allowed)", () => {
  const preflight = (origin: string, host?: string) =>
    call(OPTIONS, "/api/mcp", {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "POST", ...(host ? { Host: host } : {}) },
    });

  it.each(["https://evil.example", "http://localhost:3001", "null", "not an origin"])(
    "refuses Origin %j with 403 forbidden in the Error shape, before the key is looked at",
    async (origin) => {
      for (const headers of [{}, await authHeaders()]) {
        const res = await post({ ...headers, Origin: origin }, toolCall("whoami"));
        expect(res.status).toBe(403);
        expect(Object.keys(res.body).sort()).toEqual(["error", "message", "request_id"]);
        expect(res.body.error).toBe("forbidden");
        expect(res.body.message).toContain("SUNDOWN_MCP_ALLOWED_ORIGINS");
        expect(res.headers.get("www-authenticate")).toBeNull();
        expect(res.headers.get("ratelimit")).toBeNull();
      }
      const refused = await preflight(origin);
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-methods")).toBeNull();
    },
  );

  it("serves requests without Origin and, with no URL configured, this machine's origin it was addressed at", () =>
    withEnv({ SUNDOWN_URL: undefined, NEXTAUTH_URL: undefined }, async () => {
      const headers = await authHeaders();
      expect((await post(headers, toolCall("whoami"))).status).toBe(200);
      for (const [host, origin] of [
        ["localhost:3000", "http://localhost:3000"],
        ["localhost:3000", "https://localhost:3000"],
        ["127.0.0.1:3000", "http://127.0.0.1:3000"],
        ["[::1]:3000", "http://[::1]:3000"],
      ]) {
        const res = await post({ ...headers, Host: host, Origin: origin }, toolCall("whoami"));
        expect(res.status, origin).toBe(200);
        expect(res.body.result.structuredContent.organization.name).toBe("Acme Robotics");
      }
    }));

  // DNS rebinding: a page on a name its attacker points at this machine sends that name as both Host and Origin,
  // so the service's own origin can never be read from the request. What the conformance suite sends, key added.
  const rebound = { Host: "evil.example.com", Origin: "http://evil.example.com" };

  it.each([
    ["no URL configured", { SUNDOWN_URL: undefined, NEXTAUTH_URL: undefined }],
    ["only NEXTAUTH_URL", { SUNDOWN_URL: undefined, NEXTAUTH_URL: "https://sundown.example.com" }],
    ["SUNDOWN_URL", { SUNDOWN_URL: "https://sundown.example.com", NEXTAUTH_URL: undefined }],
  ])("a rebound name (Host and Origin evil.example.com) is 403 forbidden, %s", (_config, env) =>
    withEnv(env, async () => {
      const headers = await authHeaders();
      for (const sent of [rebound, { Host: "evil.example.com:3000", Origin: "http://evil.example.com:3000" }]) {
        const res = await post({ ...headers, ...sent }, initialize);
        expect(res.status, sent.Host).toBe(403);
        expect(Object.keys(res.body).sort()).toEqual(["error", "message", "request_id"]);
        expect(res.body.error).toBe("forbidden");
      }
      expect((await preflight(rebound.Origin, rebound.Host)).status).toBe(403);
      // The same request without Origin is a client outside a browser: served.
      expect((await post({ ...headers, Host: rebound.Host }, initialize)).status).toBe(200);
    }),
  );

  it("with a URL configured, only its origin is the service's own, whatever the Host", () =>
    withEnv({ SUNDOWN_URL: undefined, NEXTAUTH_URL: "https://sundown.example.com/" }, async () => {
      const headers = await authHeaders();
      const own = { Host: "sundown.example.com", Origin: "https://sundown.example.com" };
      expect((await post({ ...headers, ...own }, toolCall("whoami"))).status).toBe(200);
      expect((await preflight(own.Origin, own.Host)).status).toBe(204);
      const loopback = { Host: "localhost:3000", Origin: "http://localhost:3000" };
      expect((await post({ ...headers, ...loopback }, toolCall("whoami"))).status).toBe(403);
    }));

  it("an origin SUNDOWN_MCP_ALLOWED_ORIGINS lists is served on any Host", () =>
    withEnv(
      { SUNDOWN_URL: undefined, NEXTAUTH_URL: undefined, SUNDOWN_MCP_ALLOWED_ORIGINS: "http://evil.example.com" },
      async () => {
        expect((await post({ ...(await authHeaders()), ...rebound }, toolCall("whoami"))).status).toBe(200);
      },
    ));

  it("serves the origins listed in SUNDOWN_MCP_ALLOWED_ORIGINS, and with SUNDOWN_URL only its origin as its own", () =>
    withEnv(
      {
        SUNDOWN_MCP_ALLOWED_ORIGINS: "https://inspector.example, http://127.0.0.1:6274",
        SUNDOWN_URL: "https://reports.example.com",
        NEXTAUTH_URL: undefined,
      },
      async () => {
        const headers = await authHeaders();
        for (const origin of ["https://inspector.example", "http://127.0.0.1:6274", "https://reports.example.com"]) {
          expect((await post({ ...headers, Origin: origin }, toolCall("whoami"))).status, origin).toBe(200);
          const allowed = await preflight(origin);
          expect(allowed.status, origin).toBe(204);
          expect(allowed.headers.get("access-control-allow-methods")).toContain("POST");
          expect(allowed.headers.get("vary")).toBe("Origin");
        }
        for (const origin of [
          "http://localhost:3000",
          "http://reports.example.com",
          "https://inspector.example:8443",
        ]) {
          expect((await post({ ...headers, Origin: origin }, toolCall("whoami"))).status, origin).toBe(403);
        }
      },
    ));
});
