// The MCP project's own conformance suite (npm @modelcontextprotocol/conformance) against the production server:
// its generic server scenarios, which need no test tools of ours. CI runs it on Node 24 (the suite needs 22+):
//
//   SUNDOWN_DIST_DIR=.next "$NODE24_BIN/node" --import tsx scripts/mcp-conformance.ts
//
// Needs a production build in $SUNDOWN_DIST_DIR (default .next) and npm on PATH. Installs the suite at a pinned
// version into a cache outside the checkout (it needs Node 22+, while `npm ci` installs the devDependencies
// under Node 20 too), starts `next start` on a fresh embedded database, mints a key with the operator CLI, runs
// each scenario and prints its checks. Exits 0 when every scenario passes, 1 when one fails, 2 when it cannot run.
//
// The suite's client sends no credentials, and Sundown has no unauthenticated MCP (nor may a test-only bypass
// ship). So the suite talks to a front door on 127.0.0.1 that adds the key to each request and forwards it as
// is, Host and Origin included, as a gateway in front of Sundown would. The server's configured URL is that front
// door's (NEXTAUTH_URL only, SUNDOWN_URL unset: the configuration in which the endpoint used to take its own
// origin from the request's Host), so dns-rebinding-protection sees exactly what a browser page would get.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startMcpTestServer, type McpTestServer } from "@/tests/helpers/mcp-server";
import { freePort, ROOT } from "@/tests/helpers/server";

const SUITE_PACKAGE = "@modelcontextprotocol/conformance";
const SUITE_VERSION = "0.1.16";
/**
 * The generic server scenarios: the others call tools, resources and prompts the suite expects a test server to
 * define. Not among them: tools-call-error, which calls a test tool (`test_error_handling`) and expects its error
 * result. Sundown has no such tool; the scenario passed only while Sundown answered an unknown tool with a tool
 * result, where MCP 2025-11-25 asks for JSON-RPC -32602, as Sundown now answers (tests/integration/mcp-tools.test.ts,
 * which also checks the tool error results of Sundown's own tools in both eras).
 */
const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];
const HOST = "127.0.0.1";

/** A reason the run cannot happen at all: exit 2, as opposed to a scenario that ran and failed. */
class CannotRun extends Error {}

function progress(message: string): void {
  process.stderr.write(`[mcp-conformance] ${message}\n`);
}

function requireRunnable(): void {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) {
    throw new CannotRun(
      `the conformance suite needs Node 22 or later, this is ${process.version}: run this script with Node 24`,
    );
  }
  const distDir = process.env.SUNDOWN_DIST_DIR ?? ".next";
  if (!existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    throw new CannotRun(`no production build in ${distDir}: run \`SUNDOWN_DIST_DIR=${distDir} npx next build\` first`);
  }
}

/**
 * The suite's entry point, installed once per version into the machine's temporary directory with npm run by this
 * Node, so its engine check sees Node 24 and nothing lands in the checkout or its lockfile.
 */
function installSuite(): string {
  const prefix = path.join(os.tmpdir(), `sundown-mcp-conformance-${SUITE_VERSION}`);
  const packageDir = path.join(prefix, "node_modules", SUITE_PACKAGE);
  const installed = existsSync(path.join(packageDir, "package.json"))
    ? (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version?: string }).version
    : undefined;
  if (installed !== SUITE_VERSION) {
    progress(`installing ${SUITE_PACKAGE}@${SUITE_VERSION} into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    const result = spawnSync(
      "npm",
      ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `${SUITE_PACKAGE}@${SUITE_VERSION}`],
      {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` },
      },
    );
    if (result.status !== 0) throw new CannotRun(`npm install ${SUITE_PACKAGE}@${SUITE_VERSION} failed`);
  }
  return path.join(packageDir, "dist/index.js");
}

interface FrontDoor {
  url: string;
  /** Starts forwarding to Sundown on `port` with `key`; until then every request is refused with 502. */
  open(port: number, key: string): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 and forwards every request unchanged to Sundown, adding `Authorization: Bearer <key>`. */
async function listenFrontDoor(): Promise<FrontDoor> {
  const port = await freePort();
  let upstream: { port: number; key: string } | undefined;
  const server = http.createServer((request, response) => {
    if (!upstream) return void response.writeHead(502).end();
    const headers = { ...request.headers };
    if (!headers.authorization && !headers["x-api-key"]) headers.authorization = `Bearer ${upstream.key}`;
    const forwarded = http.request(
      { host: HOST, port: upstream.port, method: request.method, path: request.url, headers, setHost: false },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", () => response.headersSent || response.writeHead(502).end());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, HOST, resolve));
  return {
    url: `http://${HOST}:${port}`,
    open: (serverPort, key) => (upstream = { port: serverPort, key }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One scenario through the suite's own CLI, its output passed through; true when every check passed. */
function runScenario(suite: string, url: string, scenario: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [suite, "server", "--url", url, "--scenario", scenario], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code === 0));
  });
}

async function main(): Promise<number> {
  requireRunnable();
  const suite = installSuite();
  const door = await listenFrontDoor();
  let sundown: McpTestServer | undefined;
  try {
    progress(`starting the production server (${process.env.SUNDOWN_DIST_DIR ?? ".next"}), reached at ${door.url}`);
    sundown = await startMcpTestServer({ SUNDOWN_URL: undefined, NEXTAUTH_URL: door.url });
    const { key } = await sundown.mintKey("acme", ["reports:read", "team:read"]);
    door.open(sundown.server.port, key);

    const results: [string, boolean][] = [];
    for (const scenario of SCENARIOS) {
      progress(`scenario ${scenario}`);
      results.push([scenario, await runScenario(suite, `${door.url}/api/mcp`, scenario)]);
    }
    const failed = results.filter(([, passed]) => !passed).map(([scenario]) => scenario);
    console.log(`\n${SUITE_PACKAGE}@${SUITE_VERSION} against Sundown's /api/mcp:`);
    for (const [scenario, passed] of results) console.log(`  ${passed ? "pass" : "FAIL"}  ${scenario}`);
    if (failed.length === 0) {
      console.log("All scenarios passed.");
      return 0;
    }
    console.log(`${failed.length} of ${results.length} failed. The server's output:\n${sundown.server.output()}`);
    return 1;
  } finally {
    await sundown?.server.stop();
    await door.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CannotRun) {
      console.error(`mcp-conformance cannot run: ${error.message}`);
      process.exit(2);
    }
    console.error(error);
    process.exit(2);
  },
);
