import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/auth/api-key";
import { MESSAGE_MAX } from "@/lib/text/input-excerpt";
import { CLI } from "../helpers/cli";
import { MCP_ERAS, MODERN_META, textOf, type McpEra } from "../helpers/mcp-client";
import { connectStdioClient } from "../helpers/mcp-stdio-client";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-server";
import { ROOT, freePort } from "../helpers/server";

// `npx sundown mcp` as an MCP client starts it: the SDK's StdioClientTransport spawning the CLI,
// which calls the REST API of a running server.
const RATE_LIMIT = 20;
const run = promisify(execFile);
let t: McpTestServer;

beforeAll(async () => {
  t = await startMcpTestServer({ SUNDOWN_RATE_LIMIT: String(RATE_LIMIT) });
}, 120_000);

afterAll(async () => {
  await t?.server.stop();
});

/** `sundown mcp` spawned by the era's SDK client: v1 (initialize, 2025-11-25) or v2 pinned to 2026-07-28. */
function connectStdio(key: string, era: McpEra = "2025-11-25") {
  return connectStdioClient(
    {
      command: process.execPath,
      args: [CLI, "mcp"],
      cwd: ROOT,
      env: { SUNDOWN_API_KEY: key, SUNDOWN_URL: t.server.url },
    },
    era,
    "sundown-stdio-test",
  );
}

/** Runs `sundown mcp` expecting it to refuse to start; resolves with its exit code and output. */
async function failedStart(env: Record<string, string>) {
  // Only what an MCP client would pass: no NODE_ENV, no server settings.
  const childEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv;
  try {
    await run(process.execPath, [CLI, "mcp"], { cwd: ROOT, env: childEnv, timeout: 30_000 });
    throw new Error("sundown mcp started although it should not have");
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.each(MCP_ERAS)("stdio MCP server (sundown mcp) against a running server, %s", (era) => {
  it("serves the five tools with the same data as REST, and stdout carries only protocol", async () => {
    const { key } = await t.mintKey();
    const { client, stderr, protocolErrors } = await connectStdio(key, era);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "sundown", version: "1.0.0" });
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toEqual(["whoami", "list_reports", "get_report", "get_briefing", "list_team"]);
      for (const tool of tools)
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });

      const me = await client.callTool({ name: "whoami", arguments: {} });
      expect(me.structuredContent).toEqual((await t.rest("/api/v1/me", key)).body);
      const list = await client.callTool({ name: "list_reports", arguments: { limit: 4 } });
      const restList = (await t.rest("/api/v1/reports?limit=4", key)).body;
      expect(list.structuredContent).toEqual(restList);
      const id = restList.reports[0].id as string;
      const report = await client.callTool({ name: "get_report", arguments: { id } });
      expect(report.structuredContent).toEqual((await t.rest(`/api/v1/reports/${id}`, key)).body);
      const team = await client.callTool({ name: "list_team", arguments: {} });
      expect(team.structuredContent).toEqual((await t.rest("/api/v1/team", key)).body);
      const briefing = await client.callTool({ name: "get_briefing", arguments: { since: "2026-01-01", limit: 3 } });
      expect(briefing.structuredContent).toEqual((await t.rest("/api/v1/briefing?since=2026-01-01&limit=3", key)).body);

      const latest = await client.readResource({ uri: "sundown://reports/latest" });
      const [content] = latest.contents;
      expect(JSON.parse(content && "text" in content ? content.text : "")).toEqual(
        (await t.rest("/api/v1/reports", key)).body,
      );
      // The instructions and the briefing over the two latest reports' period, read through REST.
      const brief = await client.getPrompt({ name: "lead_brief", arguments: { count: "2" } });
      expect(brief.messages).toHaveLength(2);
      const attached = brief.messages[1]!.content as { type: string; resource: { text: string } };
      expect(attached.type).toBe("resource");
      expect(JSON.parse(attached.resource.text).period.reports).toBeGreaterThanOrEqual(2);

      expect(protocolErrors).toEqual([]);
      expect(stderr()).toContain("sundown mcp: serving Acme Robotics");
      expect(stderr()).not.toContain(key);
    } finally {
      await client.close();
    }
  });

  it("bad input, a missing scope and another organization's id are tool errors, as remotely", async () => {
    const { key } = await t.mintKey("acme", ["team:read"]);
    const globexKey = (await t.mintKey("globex")).key;
    const globexId = (await t.rest("/api/v1/reports?limit=1", globexKey)).body.reports[0].id as string;
    const { client } = await connectStdio(key, era);
    try {
      const bad = await client.callTool({ name: "list_reports", arguments: { limit: 500 } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toBe("invalid_parameter: limit must be an integer from 1 to 50 (default 14).");
      const scoped = await client.callTool({ name: "list_reports", arguments: {} });
      expect(scoped.isError).toBe(true);
      expect(textOf(scoped)).toBe(
        "insufficient_scope: This API key lacks the reports:read scope. required_scope: reports:read. Ask a founder or lead for a key with the reports:read scope (Settings → API keys).",
      );
      const team = await client.callTool({ name: "list_team", arguments: {} });
      expect(team.isError).toBeFalsy();
      const { client: full } = await connectStdio((await t.mintKey()).key, era);
      try {
        const other = await full.callTool({ name: "get_report", arguments: { id: globexId } });
        expect(textOf(other)).toBe("not_found: No report with this id exists in your organization.");
      } finally {
        await full.close();
      }
    } finally {
      await client.close();
    }
  });

  it("past the shared budget a tool call is a tool error with the retry time", async () => {
    const { key } = await t.mintKey();
    const { client, stderr } = await connectStdio(key, era);
    try {
      // The server checks the key at start-up (a v2 client's probe starts a second, short-lived one): wait for it,
      // then spend what is left of the budget over REST.
      await expect.poll(stderr, { timeout: 30_000 }).toContain("sundown mcp: serving");
      let spent = 0;
      while ((await t.rest("/api/v1/me", key)).status === 200) expect(++spent).toBeLessThan(RATE_LIMIT);
      const result = await client.callTool({ name: "list_team", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^rate_limited: .* Retry after \d+ seconds\.$/);
    } finally {
      await client.close();
    }
  }, 120_000);
});

/** `sundown mcp` spoken to line by line, as a client's transport writes and reads it, to see what a client would. */
function rawStdio(key: string) {
  const child = spawn(process.execPath, [CLI, "mcp"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SUNDOWN_API_KEY: key,
      SUNDOWN_URL: t.server.url,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  let read = 0;
  return {
    send: (line: string) => child.stdin.write(`${line}\n`),
    /** The next line the server writes, parsed: every line on stdout must be one JSON-RPC message. */
    async next(): Promise<any> {
      const deadline = Date.now() + 30_000;
      while (stdout.split("\n").length - 1 <= read) {
        if (Date.now() > deadline) throw new Error(`sundown mcp wrote no answer; its stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return JSON.parse(stdout.split("\n")[read++]!);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin.end();
      }),
  };
}

describe("stdio MCP server answers every line it cannot serve, as JSON-RPC 2.0 says", () => {
  it("not JSON is -32700 with id null; a batch is -32600 for each request in it; then it serves on", async () => {
    const stdio = rawStdio((await t.mintKey()).key);
    try {
      stdio.send("this is not json");
      expect(await stdio.next()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
      });
      stdio.send(
        JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: "two", method: "ping" },
        ]),
      );
      const batch = { code: -32600, message: expect.stringContaining("batches are not accepted") };
      expect([await stdio.next(), await stdio.next()]).toEqual([
        { jsonrpc: "2.0", id: 1, error: batch },
        { jsonrpc: "2.0", id: "two", error: batch },
      ]);
      stdio.send("[]");
      expect(await stdio.next()).toEqual({ jsonrpc: "2.0", id: null, error: batch });
      stdio.send('{"jsonrpc":"1.0","id":3,"method":"ping"}');
      expect(await stdio.next()).toEqual({
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32600, message: expect.stringContaining("not a JSON-RPC 2.0 message") },
      });

      const clientInfo = { name: "raw", version: "1" };
      stdio.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 4,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo },
        }),
      );
      expect(await stdio.next()).toMatchObject({ id: 4, result: { protocolVersion: "2025-11-25" } });
    } finally {
      await stdio.close();
    }
  });

  it("params of the wrong shape are one clear -32602 line, as remotely, and the connection serves on", async () => {
    const stdio = rawStdio((await t.mintKey()).key);
    try {
      const clear = (names: RegExp) => ({
        code: -32602,
        message: expect.stringMatching(new RegExp(`^Invalid params for tools/call: ${names.source}[^\\[\\]{}\\n]*$`)),
      });
      stdio.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "whoami", arguments: "x", _meta: MODERN_META },
        }),
      );
      expect(await stdio.next()).toEqual({ jsonrpc: "2.0", id: 1, error: clear(/params\.arguments/) });
      stdio.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: MODERN_META } }));
      expect(await stdio.next()).toEqual({ jsonrpc: "2.0", id: 2, error: clear(/params\.name/) });
      stdio.send(
        JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "whoami", _meta: MODERN_META } }),
      );
      expect(await stdio.next()).toMatchObject({ id: 3, result: { structuredContent: { organization: {} } } });
    } finally {
      await stdio.close();
    }
  });

  it("an error quotes a name it was sent as a bounded excerpt, its bidi and tag characters escaped", async () => {
    const stdio = rawStdio((await t.mintKey()).key);
    try {
      const name = `\u202e${"x".repeat(5000)}\u{e0041}`;
      stdio.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name, arguments: {}, _meta: MODERN_META },
        }),
      );
      const { error } = await stdio.next();
      expect(error.message.length).toBeLessThanOrEqual(MESSAGE_MAX);
      expect(error.message).toContain("\\u202exxx");
      expect(error.message).not.toMatch(/\u202e|\u{e0041}/u);
    } finally {
      await stdio.close();
    }
  });

  it("an unsupported revision is -32022 naming every revision served, both eras, newest first", async () => {
    const stdio = rawStdio((await t.mintKey()).key);
    try {
      const _meta = { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
      stdio.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }));
      expect(await stdio.next()).toMatchObject({
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32022,
          data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "2099-01-01" },
        },
      });
    } finally {
      await stdio.close();
    }
  });
});

describe("stdio MCP server refuses to start, clearly, on stderr", () => {
  it("without SUNDOWN_API_KEY", async () => {
    const res = await failedStart({ SUNDOWN_URL: t.server.url });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("sundown mcp: SUNDOWN_API_KEY is not set.");
  });

  it("with a key the server does not know", async () => {
    const res = await failedStart({ SUNDOWN_URL: t.server.url, SUNDOWN_API_KEY: generateApiKey().secret });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain(`sundown mcp: ${t.server.url} rejected SUNDOWN_API_KEY: The API key is not valid.`);
  });

  it("with something that is not a Sundown key, without asking the server", async () => {
    const res = await failedStart({ SUNDOWN_URL: t.server.url, SUNDOWN_API_KEY: "sk_live_not_ours" });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("sundown mcp: SUNDOWN_API_KEY is not a Sundown API key");
  });

  it("with a revoked key, saying so", async () => {
    const { id, key } = await t.mintKey();
    await t.revokeKey(id);
    const res = await failedStart({ SUNDOWN_URL: t.server.url, SUNDOWN_API_KEY: key });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain(
      `sundown mcp: ${t.server.url} rejected SUNDOWN_API_KEY: The API key has been revoked.`,
    );
    expect(res.stderr).not.toContain(key);
  });

  it("when nothing listens at SUNDOWN_URL", async () => {
    const { key } = await t.mintKey();
    const url = `http://127.0.0.1:${await freePort()}`;
    const res = await failedStart({ SUNDOWN_URL: url, SUNDOWN_API_KEY: key });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain(`Cannot reach Sundown at ${url}`);
  });
});
