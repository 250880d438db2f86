import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLinks } from "../helpers/links";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-server";

// The edges of HTTP that only a real `next start` shows: the Host the client addressed (request.url always
// says localhost there), methods Next cannot route, headers Node drops, server actions and Origin.

let t: McpTestServer;
let port: number;
let key: string;

beforeAll(async () => {
  // No SUNDOWN_URL: links must come from the request.
  t = await startMcpTestServer({ SUNDOWN_URL: undefined });
  port = t.server.port;
  key = (await t.mintKey()).key;
}, 120_000);

afterAll(async () => {
  await t?.server.stop();
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => any;
}

/** A request exactly as given: any method, any Host, header lines repeated when given an array. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string | string[]> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method, path, setHost: false, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

// Discovery documents and how long shared caches may keep them: the MCP cards and the catalog that points at
// them for an hour (the server-card extension's guidance), the others for five minutes.
const DOCUMENTS = [
  ["/api/v1", 300],
  ["/openapi.json", 300],
  ["/.well-known/api-catalog", 300],
  ["/.well-known/mcp/server-card.json", 3600],
  ["/api/mcp/server-card", 3600],
  ["/.well-known/ai-catalog.json", 3600],
  ["/llms.txt", 300],
] as const;

describe("links follow the Host the client addressed", () => {
  it.each(DOCUMENTS)(
    "%s links to 127.0.0.1 or localhost as addressed, never to a client's forwarded host or scheme",
    async (path, maxAge) => {
      const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
      for (const host of hosts) {
        const other = hosts.find((h) => h !== host)!;
        for (const spoof of [{}, { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" }] as Record<
          string,
          string
        >[]) {
          const res = await raw("GET", path, { Host: host, ...spoof });
          expect(res.status, `${path} ${host}`).toBe(200);
          expect(res.text).toContain(`http://${host}/`);
          expect(res.text).not.toContain(other);
          expect(res.text).not.toContain(`https://${host}`);
          expect(res.text).not.toContain("evil.example");
          expect(res.headers["cache-control"]).toBe(`public, max-age=${maxAge}`);
          expect(res.headers.vary).toMatch(/(^|, )Host(,|$)/);
        }
      }
    },
  );

  it("the discovery Link header follows the Host too", async () => {
    const res = await raw("HEAD", "/api/v1");
    const links = parseLinks(String(res.headers.link));
    expect(links.map((link) => link.params.rel)).toEqual(["api-catalog", "service-desc", "service-doc", "alternate"]);
    for (const link of links) expect(link.href).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/`));
  });

  it.each(["evil.example/<script>", "a b", "evil.example@127.0.0.1"])(
    "a malformed Host %j gets a JSON 400, not a link",
    async (host) => {
      const res = await raw("GET", "/api/v1", { Host: host });
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.json()).toMatchObject({ error: "invalid_parameter", message: expect.stringContaining("Host") });
    },
  );
});

describe("idle connections", () => {
  // Proxies keep connections to the instances open between requests (nginx's upstream keepalive, a load
  // balancer's pool) for 60 s by default. Were an instance to close an idle one first (Node's own default is 5 s),
  // a request the proxy sends on it just then would fail: a reset, a 502 for a POST no proxy resends.
  it("stay open past Node's 5 s default, and the server tells clients how long it keeps them", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ reused: boolean; keepAlive: http.IncomingHttpHeaders["keep-alive"] }>((resolve, reject) => {
        const request = http.get({ host: "127.0.0.1", port, path: "/api/v1", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ reused: request.reusedSocket, keepAlive: res.headers["keep-alive"] }));
        });
        request.on("error", reject);
      });
    try {
      const first = await get();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect({ announced: first.keepAlive, reusedAfterSixSeconds: second.reused }).toEqual({
        announced: "timeout=65",
        reusedAfterSixSeconds: true,
      });
    } finally {
      agent.destroy();
    }
  });
});

describe("methods Next cannot route", () => {
  const paths = [
    ["/api/v1", "GET, HEAD"],
    ["/api/v1/me", "GET, HEAD"],
    ["/api/v1/reports/00000000-0000-0000-0000-000000000000", "GET, HEAD"],
    ["/api/nope", "GET, HEAD"],
    ["/api/mcp", "POST"],
    ["/openapi.json", "GET, HEAD"],
    ["/.well-known/api-catalog", "GET, HEAD"],
    ["/llms.txt", "GET, HEAD"],
  ] as const;
  it.each(["TRACE", "PROPFIND"])(
    "%s on every API path and discovery document → JSON 405 with Allow",
    async (method) => {
      for (const [path, allow] of paths) {
        const res = await raw(method, path, { "X-Request-Id": "trace-me-1" });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(res.headers.allow).toBe(allow);
        expect(res.headers["x-request-id"]).toBe("trace-me-1");
        expect(res.json()).toEqual({
          error: "method_not_allowed",
          message: expect.any(String),
          request_id: "trace-me-1",
        });
      }
    },
  );
});

describe("keys and credentials over the wire", () => {
  it("two Authorization header lines are refused with 401, whichever comes first", async () => {
    const one = await raw("GET", "/api/v1/me", { Authorization: `Bearer ${key}` });
    expect(one.status).toBe(200);
    for (const lines of [
      [`Bearer ${key}`, "Bearer sdn_sk_other"],
      ["Bearer sdn_sk_other", `Bearer ${key}`],
      [`Bearer ${key}`, `Bearer ${key}`],
    ]) {
      const res = await raw("GET", "/api/v1/me", { Authorization: lines });
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({
        error: "unauthorized",
        message: expect.stringContaining("more than one Authorization header"),
      });
    }
  });

  it.each(["/register", "/authorize", "/token"])(
    "%s, probed by OAuth-aware MCP clients, is the JSON 404 pointing at API keys",
    async (path) => {
      for (const method of ["GET", "POST"]) {
        const res = await raw(method, path);
        expect(res.status).toBe(404);
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(res.json()).toMatchObject({ error: "not_found", message: expect.stringContaining("API key") });
      }
    },
  );
});

describe("cross-site requests", () => {
  const action = {
    "Next-Action": "7f0123456789abcdef0123456789abcdef01234567",
    "Content-Type": "text/plain;charset=UTF-8",
  };

  it.each(["/settings/api-keys", "/signin", "/"])(
    "a cross-site server-action POST to %s is a 403, not a 500",
    async (path) => {
      const res = await raw("POST", path, { ...action, Origin: "https://evil.example" }, "[]");
      expect(res.status).toBe(403);
      expect(res.json()).toMatchObject({ error: "forbidden" });
      const sameSite = await raw("POST", path, { ...action, Origin: `http://127.0.0.1:${port}` }, "[]");
      expect(sameSite.status).not.toBe(403);
      expect(sameSite.status).toBeLessThan(500);
    },
  );

  it("/api/mcp refuses a foreign Origin with 403 and serves its own origin and clients without one", async () => {
    const call = (headers: Record<string, string>) =>
      raw(
        "POST",
        "/api/mcp",
        {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          Authorization: `Bearer ${key}`,
          ...headers,
        },
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
      );
    const foreign = await call({ Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ error: "forbidden" });
    expect((await call({ Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await call({})).status).toBe(200);
    const preflight = await raw("OPTIONS", "/api/mcp", {
      Origin: "https://evil.example",
      "Access-Control-Request-Method": "POST",
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
  });
});
