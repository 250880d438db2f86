import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CLI } from "./cli";
import { ROOT, startServer, tempDataDir, type RunningServer } from "./server";

const run = promisify(execFile);

export interface McpTestServer {
  server: RunningServer;
  dataDir: string;
  /** Mints a key the way an operator does: `sundown keys create --json` against the server's database. */
  mintKey(org?: string, scopes?: string[]): Promise<{ id: string; key: string }>;
  revokeKey(id: string): Promise<void>;
  /** A REST call with the key, as any other client makes it. */
  rest(path: string, key: string): Promise<{ status: number; body: any; headers: Headers }>;
}

/** The production build on a fresh embedded database, with keys minted through the operator CLI. */
export async function startMcpTestServer(env: Record<string, string | undefined> = {}): Promise<McpTestServer> {
  const dataDir = tempDataDir();
  const cliEnv = { ...process.env, SUNDOWN_DATA_DIR: dataDir, DATABASE_URL: undefined, SUNDOWN_LOG_LEVEL: "warn" };
  // Creating, migrating and seeding the embedded database takes most of a start-up on a busy machine:
  // the operator CLI does it first (as on a fresh checkout), so the server's start-up wait covers only the server.
  await run(process.execPath, [CLI, "orgs", "list"], { cwd: ROOT, env: cliEnv });
  const server = await startServer({ SUNDOWN_DATA_DIR: dataDir, ...env });
  let minted = 0;
  return {
    server,
    dataDir,
    async mintKey(org = "acme", scopes = ["reports:read", "team:read"]) {
      const { stdout } = await run(
        process.execPath,
        [CLI, "keys", "create", "--org", org, "--name", `mcp-test-${++minted}`, "--scopes", scopes.join(","), "--json"],
        { cwd: ROOT, env: cliEnv },
      );
      return JSON.parse(stdout) as { id: string; key: string };
    },
    async revokeKey(id) {
      await run(process.execPath, [CLI, "keys", "revoke", id], { cwd: ROOT, env: cliEnv });
    },
    async rest(path, key) {
      const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
  };
}
