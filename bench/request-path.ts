// `npm run bench:path`: which of Sundown's files and functions one warm keyed request runs, REST's
// `GET /api/v1/reports?limit=5` and an MCP 2026-07-28 `tools/call` of `list_reports`, counted with V8's precise
// coverage (call counts) in process, on an in-memory embedded database and the in-memory rate-limit store. The counts
// behind docs/architecture.md's "The path of one request"; they move with the code.
//
// Then the path's climbs: the folders of lib/ the request's functions run in, in the order they are entered, and the
// times the path steps back up to a higher layer (the layers of .dependency-cruiser.cjs) it had gone down from. The
// order is exact, not sampled: each function the coverage saw gets a breakpoint at its first statement whose
// condition records the function's folder and answers false, so nothing ever pauses (a logpoint, as debuggers
// call it); one more request is then sent.
import { createRequire } from "node:module";
import { Session } from "node:inspector/promises";
import path from "node:path";
import ts from "typescript";

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

type Coverage = Awaited<ReturnType<typeof takeCoverage>>;

async function takeCoverage() {
  return (await session.post("Profiler.takePreciseCoverage")).result;
}

// The layers, bottom first, as the boundary rules declare them (one `layer-<name>-not-up` rule each, the top one
// ruling nothing above it); app/ sits above them all.
const { forbidden } = createRequire(import.meta.url)(`${ROOT}.dependency-cruiser.cjs`) as {
  forbidden: { name: string; from: { path: string | string[] } }[];
};
const LAYER_PATTERNS = forbidden
  .filter(({ name }) => name.startsWith("layer-"))
  .map(({ from }) => [from.path].flat().map((pattern) => new RegExp(pattern)));

/** A file's place on the path: its lib/ folder (or file) and its layer's rank, bottom 0; app/ above every layer. */
interface Place {
  folder: string;
  rank: number;
}

function placeOf(file: string): Place {
  if (!file.startsWith("lib/")) return { folder: file.split("/")[0]!, rank: LAYER_PATTERNS.length + 1 };
  const rank = LAYER_PATTERNS.findIndex((patterns) => patterns.some((pattern) => pattern.test(file)));
  return { folder: file.split("/")[1]!.replace(/[.]ts$/, ""), rank: rank === -1 ? LAYER_PATTERNS.length : rank };
}

/** Where each function's body starts in a script as V8 runs it (tsx's output), found with TypeScript's parser. */
function functionBodies(source: string): { line: number; column: number }[] {
  const file = ts.createSourceFile("script.js", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const bodies: { line: number; column: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const { line, character } = file.getLineAndCharacterOfPosition((node.body as ts.Node).getStart(file));
      bodies.push({ line, column: character });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return bodies;
}

const entered = ((globalThis as { __sundownPath?: string[] }).__sundownPath = []);

/** The lib/ and app/ folders of the functions one more request enters, in order (consecutive repeats collapsed). */
async function folderSequence(coverage: Coverage, send: () => Promise<Response>): Promise<Place[]> {
  await session.post("Debugger.enable");
  const breakpoints: string[] = [];
  const set = new Set<string>();
  const scripts = new Map<string, string>();
  for (const script of coverage) {
    const file = script.url.replace("file://", "").slice(ROOT.length);
    if (/^(lib|app)\//.test(file) && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
      scripts.set(script.scriptId, file);
  }
  for (const [scriptId, file] of scripts) {
    const { scriptSource } = await session.post("Debugger.getScriptSource", { scriptId });
    const condition = `globalThis.__sundownPath.push(${JSON.stringify(file)}), false`;
    for (const body of functionBodies(scriptSource)) {
      const { locations } = await session.post("Debugger.getPossibleBreakpoints", {
        start: { scriptId, lineNumber: body.line, columnNumber: body.column },
        restrictToFunction: true,
      });
      const location = locations[0];
      // A function whose body starts with another's (an arrow returning an arrow) shares its breakpoint.
      const at = location && `${scriptId}:${location.lineNumber}:${location.columnNumber}`;
      if (!at || set.has(at)) continue;
      set.add(at);
      const { breakpointId } = await session.post("Debugger.setBreakpoint", { location, condition });
      breakpoints.push(breakpointId);
    }
  }
  entered.length = 0;
  await (await send()).text();
  const files = [...entered];
  for (const breakpointId of breakpoints) await session.post("Debugger.removeBreakpoint", { breakpointId });
  await session.post("Debugger.disable");
  return files
    .map(placeOf)
    .filter((place, i, all) => i === 0 || all[i - 1]!.folder !== place.folder || all[i - 1]!.rank !== place.rank);
}

/** Steps to a place of a higher layer than the one before it: the path climbing back up. */
function climbs(sequence: Place[]): number {
  return sequence.filter((place, i) => i > 0 && place.rank > sequence[i - 1]!.rank).length;
}

async function count(label: string, send: () => Promise<Response>): Promise<void> {
  // Warm: the key is known, the contact versions held, the modules loaded.
  for (let i = 0; i < 4; i++) await (await send()).text();
  await takeCoverage();
  const response = await send();
  await response.text();
  const result = await takeCoverage();
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
  const sequence = await folderSequence(result, send);
  console.log(`  Folders in order: ${sequence.map(({ folder }) => folder).join(" → ")}`);
  console.log(`  Climbs: ${climbs(sequence)}`);
}

await count("REST GET /api/v1/reports?limit=5", rest);
await count("MCP 2026-07-28 tools/call list_reports", mcp);
process.exit(0);
