// `npm run bench:path`: which of Sundown's files and functions one warm keyed request runs, REST's
// `GET /api/v1/reports?limit=5` and an MCP 2026-07-28 `tools/call` of `list_reports`, counted with V8's precise
// coverage (call counts) in process, on an in-memory embedded database and the in-memory rate-limit store. The counts
// behind docs/architecture.md's "The path of one request"; they move with the code.
import { Session } from "node:inspector/promises";
import path from "node:path";

process.env.SUNDOWN_DATA_DIR = "memory://";
process.env.SUNDOWN_LOG_LEVEL = "silent";
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;

const ROOT = `${path.resolve(import.meta.dirname, "..")}/`;
const { getDbHandle } = await import("@/lib/db");
const { seedDemoOnFirstStart } = await import("@/lib/demo/first-start");
await seedDemoOnFirstStart(await getDbHandle());
const { mintKey } = await import("../tests/helpers/keys");
const { toolCallInit } = await import("../tests/helpers/mcp-client");
const { GET } = await import("@/app/api/v1/reports/route");
const { POST } = await import("@/app/api/mcp/route");
const { key } = await mintKey("acme");

const routeContext = { params: Promise.resolve({}) };
const rest = () =>
  GET(
    new Request("http://localhost:3000/api/v1/reports?limit=5", { headers: { Authorization: `Bearer ${key}` } }),
    routeContext,
  );
const mcp = () =>
  POST(
    new Request(
      "http://localhost:3000/api/mcp",
      toolCallInit("2026-07-28", "list_reports", { limit: 5 }, { Authorization: `Bearer ${key}` }),
    ),
    routeContext,
  );

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

/** The package a node_modules path belongs to (`zod`, `@modelcontextprotocol/server`). */
function packageOf(file: string): string {
  const inside = file.split("node_modules/").at(-1)!.split("/");
  return inside.slice(0, inside[0]!.startsWith("@") ? 2 : 1).join("/");
}

async function count(label: string, send: () => Promise<Response>): Promise<void> {
  // Warm: the key is known, the contact versions held, the modules loaded.
  for (let i = 0; i < 4; i++) await (await send()).text();
  await session.post("Profiler.takePreciseCoverage");
  const response = await send();
  await response.text();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const own = new Map<string, { functions: number; calls: number }>();
  const packages = new Map<string, { functions: number; calls: number }>();
  for (const script of result) {
    const file = script.url.replace("file://", "");
    const tally = file.includes("node_modules/")
      ? packages
      : file.startsWith(ROOT) && !/^(tests|bench)\//.test(file.slice(ROOT.length))
        ? own
        : undefined;
    if (!tally) continue;
    const name = tally === packages ? packageOf(file) : file.slice(ROOT.length);
    for (const fn of script.functions) {
      const calls = fn.ranges[0]!.count;
      if (calls === 0) continue;
      const entry = tally.get(name) ?? { functions: 0, calls: 0 };
      entry.functions += 1;
      entry.calls += calls;
      tally.set(name, entry);
    }
  }
  const sum = (m: Map<string, { functions: number; calls: number }>, k: "functions" | "calls") =>
    [...m.values()].reduce((total, entry) => total + entry[k], 0);
  console.log(`\n${label} (${response.status})`);
  for (const [file, { functions, calls }] of own) console.log(`  ${file}: ${functions} functions, ${calls} calls`);
  console.log(`  Sundown: ${own.size} files, ${sum(own, "functions")} functions, ${sum(own, "calls")} calls`);
  for (const [name, { functions, calls }] of [...packages].sort((a, b) => b[1].calls - a[1].calls).slice(0, 6)) {
    console.log(`  ${name}: ${functions} functions, ${calls} calls`);
  }
}

await count("REST GET /api/v1/reports?limit=5", rest);
await count("MCP 2026-07-28 tools/call list_reports", mcp);
process.exit(0);
