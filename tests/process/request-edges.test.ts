import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLinks } from "../helpers/links";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-server";
import { serverActionId } from "../helpers/server-actions";

// The edges of HTTP that only a real `next start` shows: the Host the client addressed (request.url always
// says localhost there), methods Next cannot route, headers Node drops, server actions and Origin.

let t: McpTestServer;
let port: number;
let key: string;

beforeAll(async () => {
  // No SUNDOWN_URL: links must come from the request. Logged at info, so each request's line can be read.
  t = await startMcpTestServer({ SUNDOWN_URL: undefined, SUNDOWN_LOG_LEVEL: "info" });
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
  body?: string | Buffer,
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

  it.each([
    "/settings/api-keys",
    "/settings/reports",
    "/settings/ingest-tokens",
    "/settings/organization",
    "/signin",
    "/",
  ])("a cross-site server-action POST to %s is a 403, not a 500", async (path) => {
    const res = await raw("POST", path, { ...action, Origin: "https://evil.example" }, "[]");
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: "forbidden" });
    const sameSite = await raw("POST", path, { ...action, Origin: `http://127.0.0.1:${port}` }, "[]");
    expect(sameSite.status).not.toBe(403);
    expect(sameSite.status).toBeLessThan(500);
  });

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

/** The server's log line for the request with this id (written once the answer is sent), or undefined. */
async function logLineOf(requestId: string): Promise<Record<string, unknown> | undefined> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const line = t.server
      .output()
      .split("\n")
      .find((l) => l.startsWith("{") && l.includes(`"request_id":"${requestId}"`));
    if (line) return JSON.parse(line);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

let requestCount = 0;
const nextRequestId = (label: string) => `edge-${label}-${++requestCount}`;

/** Asserts the JSON error shape with the request id echoed, and the request's line in the log. */
async function expectJsonError(res: RawResponse, requestId: string, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(res.headers["x-request-id"]).toBe(requestId);
  expect(res.json()).toEqual({ error, message: expect.any(String), request_id: requestId });
  expect(await logLineOf(requestId)).toMatchObject({ level: "info", msg: "request", request_id: requestId, status });
}

describe("next-auth's endpoints", () => {
  it("POST /api/auth/_log is a JSON 404 and writes nothing it was sent to the log", async () => {
    const marker = "WRITTEN-BY-ANYONE";
    for (const [contentType, body] of [
      ["application/json", JSON.stringify({ code: marker, level: "error", detail: marker.repeat(1000) })],
      ["application/x-www-form-urlencoded", new URLSearchParams({ code: marker, level: "error" }).toString()],
    ]) {
      const id = nextRequestId("log");
      const res = await raw("POST", "/api/auth/_log", { "Content-Type": contentType, "X-Request-Id": id }, body);
      await expectJsonError(res, id, 404, "not_found");
    }
    expect(t.server.output()).not.toContain(marker);
  });

  it("a refused request to a one-time link's page is logged without the link's token", async () => {
    const token = `sdn_in_${"K".repeat(38)}`;
    for (const [path, headers] of [
      [
        `/invite/${token}`,
        { "Next-Action": "7f0123456789abcdef0123456789abcdef01234567", Origin: "https://evil.example" },
      ],
      [`/invite/${token}%zz`, {}],
    ] as const) {
      const id = nextRequestId("link");
      const res = await raw(
        "POST",
        path,
        { "Content-Type": "text/plain;charset=UTF-8", "X-Request-Id": id, ...headers },
        "[]",
      );
      expect([400, 403]).toContain(res.status);
      expect(await logLineOf(id)).toMatchObject({ route: expect.stringMatching(/^\/invite\/\[token\]/) });
    }
    expect(t.server.output()).not.toContain(token);
  });

  it("a GET on the credentials callback is a JSON 405 naming POST, not a 500", async () => {
    const id = nextRequestId("callback");
    const res = await raw("GET", "/api/auth/callback/credentials", { "X-Request-Id": id });
    await expectJsonError(res, id, 405, "method_not_allowed");
    expect(res.headers.allow).toBe("POST");
  });

  it.each([
    ["GET", "/api/auth/verify-request"],
    ["GET", "/api/auth/nope"],
    ["GET", "/api/auth/callback/nope"],
    ["GET", "/api/auth/session/extra"],
  ])("%s %s, which sign-in does not use, is a JSON 404", async (method, path) => {
    const id = nextRequestId("unused");
    await expectJsonError(await raw(method, path, { "X-Request-Id": id }), id, 404, "not_found");
  });

  it("a JSON body that does not parse is a JSON 400, not a 500", async () => {
    const id = nextRequestId("json");
    const res = await raw("POST", "/api/auth/session", { "Content-Type": "application/json", "X-Request-Id": id }, "{");
    await expectJsonError(res, id, 400, "invalid_parameter");
  });

  it("what sign-in uses still answers, with a request id", async () => {
    const csrf = await raw("GET", "/api/auth/csrf");
    expect(csrf.status).toBe(200);
    expect(csrf.json()).toEqual({ csrfToken: expect.any(String) });
    expect(csrf.headers["x-request-id"]).toEqual(expect.any(String));
    const session = await raw("GET", "/api/auth/session");
    expect(session.status).toBe(200);
    expect(session.json()).toEqual({});
  });
});

describe("paths that are not valid percent-encoding", () => {
  it.each([
    "/api/v1/reports/%E0%A4%A",
    "/api/v1/reports/%zz",
    "/api/v1/team%zz",
    "/api/%zz",
    "/api/v1/%",
    "/api/mcp/%zz",
    "/api/auth/%zz",
    "/settings/webhooks/%zz",
    "/settings/webhooks/%E0%A4",
    "/settings/api-keys%C0%AF",
  ])("%s is a JSON 400 with a request id, logged", async (path) => {
    const id = nextRequestId("path");
    await expectJsonError(await raw("GET", path, { "X-Request-Id": id }), id, 400, "invalid_parameter");
  });

  it("an encoded query string is left to the route, which reads it as text", async () => {
    const res = await raw("GET", "/api/v1/reports?q=%zz");
    expect(res.status).toBe(401);
  });
});

describe("server-action bodies Next cannot decode", () => {
  const multipart = (parts: string) => ({
    "Content-Type": "multipart/form-data; boundary=edge",
    body: parts,
  });
  const field = (name: string, value: string) =>
    `--edge\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

  it.each([
    ["text that is not JSON", { "Content-Type": "text/plain;charset=UTF-8", body: "{{{garbage" }],
    ["JSON cut short", { "Content-Type": "text/plain;charset=UTF-8", body: "[" }],
    ["bytes that are not UTF-8", { "Content-Type": "text/plain;charset=UTF-8", body: Buffer.from([0x5b, 0xff, 0x5d]) }],
    // Well-formed replies, but no form's: the action would be handed no FormData and fail on it.
    ["an empty argument list", { "Content-Type": "text/plain;charset=UTF-8", body: "[]" }],
    [
      "a text reply naming form fields it cannot carry",
      { "Content-Type": "text/plain;charset=UTF-8", body: '["$K1"]' },
    ],
    ["a multipart body that does not parse", multipart("nonsense")],
    ["a multipart body cut short", multipart(field("0", "[{}]").slice(0, 30))],
    ["a multipart body whose arguments are not JSON", multipart(`${field("0", "[{")}--edge--\r\n`)],
    ["a multipart body without its arguments", multipart(`${field("_1_name", "x")}--edge--\r\n`)],
    ["a multipart body whose arguments hold no form", multipart(`${field("0", "[1,2]")}--edge--\r\n`)],
  ])("%s is a JSON 400 with a request id, logged, not a 500", async (_label, { body, ...headers }) => {
    const id = nextRequestId("action");
    const res = await raw(
      "POST",
      "/settings/api-keys",
      {
        "Next-Action": serverActionId("createApiKeyAction"),
        Accept: "text/x-component",
        Origin: `http://127.0.0.1:${port}`,
        "X-Request-Id": id,
        ...headers,
      },
      body,
    );
    await expectJsonError(res, id, 400, "invalid_parameter");
  });

  it("a body over Next's 1 MB limit is a JSON 413", async () => {
    const id = nextRequestId("large");
    const res = await raw(
      "POST",
      "/settings/api-keys",
      {
        "Next-Action": serverActionId("createApiKeyAction"),
        "Content-Type": "text/plain;charset=UTF-8",
        Origin: `http://127.0.0.1:${port}`,
        "X-Request-Id": id,
      },
      JSON.stringify(["x".repeat(1024 * 1024)]),
    );
    await expectJsonError(res, id, 413, "payload_too_large");
  });
});
