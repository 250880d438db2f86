// Summarizes the server's V8 CPU profile (`--cpu-prof`) by where the time goes: Prisma, PGlite,
// zod, hashing, Next, Node's HTTP stack, our own lib/ and app/ code. The production build bundles
// our code and some dependencies into chunks; their source maps put each sample back in its source file.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  /** Microseconds on the monotonic clock, the same clock as process.hrtime in any process. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span of the monotonic clock in microseconds (process.hrtime.bigint() / 1000). */
export interface TimeWindow {
  startUs: number;
  endUs: number;
}

export interface ProfileSummary {
  /** Sampled time outside "(idle)", in milliseconds. */
  totalMs: number;
  categories: { name: string; ms: number }[];
  functions: { name: string; where: string; ms: number }[];
}

// First match wins; tested against the original source path (after source maps) or the file URL.
const CATEGORIES: [RegExp, string][] = [
  [/@prisma\/|prisma\/runtime|lib\/generated\/prisma|query_compiler/, "Prisma (client, query compiler, adapters)"],
  [/pglite/, "PGlite (embedded PostgreSQL, WebAssembly)"],
  [/node_modules\/pg(-[a-z]+)?\//, "pg driver"],
  [/ioredis|@upstash/, "Redis client"],
  [/node_modules\/zod\//, "zod (validation, output parsing)"],
  [
    /@modelcontextprotocol|node_modules\/(ajv|ajv-formats|fast-uri|json-schema-traverse|fast-deep-equal|zod-to-json-schema)\//,
    "MCP SDK (with its ajv JSON Schema validator)",
  ],
  [/node:internal\/crypto|node:crypto|node:zlib/, "hashing and checksums (node:crypto, zlib)"],
  [
    /node_modules\/next\/|^next\/|turbopack:|\[turbopack\]|@opentelemetry\/api|@next\//,
    "Next.js (routing, adapters, tracing, Turbopack runtime)",
  ],
  [
    /node:internal\/(http|_http|streams|stream|net|tls|dns|url)|node:(http|_http|net|stream|events|url)|undici|internal\/deps\/undici/,
    "Node.js HTTP, streams and fetch types",
  ],
  [
    /node:internal\/perf|node:internal\/async_hooks|node:async_hooks|node:internal\/process|node:internal\/timers|node:timers/,
    "Node.js async hooks, timers, process",
  ],
  [/^node:/, "Node.js core (other)"],
  [/(^|\/)lib\/(http|auth)\//, "Sundown lib/http + lib/auth (pipeline, keys, limiter)"],
  [/(^|\/)lib\/(mcp)\//, "Sundown lib/mcp"],
  [/(^|\/)(lib|app)\//, "Sundown lib/ and app/ (other)"],
];

const UNATTRIBUTED = "V8 / native (unattributed)";

const SPECIAL: Record<string, string> = {
  "(garbage collector)": "garbage collection",
  "(program)": "V8 / native (unattributed)",
  "(root)": "V8 / native (unattributed)",
};

function categorize(frame: CallFrame, source: string): string {
  const special = SPECIAL[frame.functionName];
  if (special) return special;
  if (!source) return UNATTRIBUTED;
  if (source.startsWith("wasm://")) return "WebAssembly (PGlite's PostgreSQL or Prisma's query compiler)";
  for (const [pattern, name] of CATEGORIES) if (pattern.test(source)) return name;
  return `other: ${source
    .replace(/^.*node_modules\//, "")
    .split("/")
    .slice(0, 2)
    .join("/")}`;
}

const maps = new Map<string, SourceMap | undefined>();

function sourceMapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    let map: SourceMap | undefined;
    try {
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = undefined;
    }
    maps.set(file, map);
  }
  return maps.get(file);
}

/** The original source of a frame: through the chunk's source map when it is bundled code. */
function originalSource(frame: CallFrame, distDir: string): string {
  if (!frame.url) return "";
  let file = frame.url;
  if (file.startsWith("file://")) file = fileURLToPath(file);
  if (!file.startsWith(distDir)) return file;
  const entry = sourceMapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber) as
    { originalSource?: string } | undefined;
  const original = entry?.originalSource;
  if (!original) return file;
  // Sources are relative to the chunk (../../../lib/x.ts) or project-prefixed (turbopack:///[project]/…).
  let decoded = original;
  try {
    decoded = decodeURIComponent(original);
  } catch {
    // Not URI-encoded: keep as is.
  }
  return decoded
    .replace(/^turbopack:\/\/\/\[project\]\//, "")
    .replace(/^(\.\.\/)+/, "")
    .replace(/^file:\/\//, "");
}

/**
 * Self time per category and per function, over one or more profiles (a process tree writes several),
 * counting only samples inside the windows (the measured runs: start-up and warm-up stay out).
 * Native functions without a source (string writes, microtask runs) are charged to the category of
 * the nearest JavaScript caller that has one.
 */
export function summarizeProfile(files: string[], distDir: string, windows: TimeWindow[]): ProfileSummary {
  const categories = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; ms: number }>();
  const inWindow = (t: number) => windows.some((w) => t >= w.startUs && t <= w.endUs);
  let totalMs = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
    const selfUs = new Map<number, number>();
    // timeDeltas[i] is the time since the previous sample; it is charged to sample i.
    let t = profile.startTime;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      t += delta;
      if (inWindow(t)) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    });
    const categoryOf = (id: number): string => {
      for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
        const frame = byId.get(current)!.callFrame;
        const category = categorize(frame, originalSource(frame, distDir));
        if (category !== UNATTRIBUTED || SPECIAL[frame.functionName]) return category;
      }
      return UNATTRIBUTED;
    };
    for (const node of profile.nodes) {
      const us = selfUs.get(node.id);
      if (!us || node.callFrame.functionName === "(idle)") continue;
      const ms = us / 1000;
      totalMs += ms;
      const source = originalSource(node.callFrame, distDir);
      const category = categoryOf(node.id);
      categories.set(category, (categories.get(category) ?? 0) + ms);
      const name = node.callFrame.functionName || "(anonymous)";
      const where = (path.isAbsolute(source) ? path.relative(path.dirname(distDir), source) : source).replace(
        /^.*node_modules\//,
        "",
      );
      const key = `${name}@${where}`;
      const entry = functions.get(key) ?? { name, where, ms: 0 };
      entry.ms += ms;
      functions.set(key, entry);
    }
  }
  return {
    totalMs,
    categories: [...categories].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms),
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms).slice(0, 20),
  };
}
