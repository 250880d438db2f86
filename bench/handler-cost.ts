// `npm run bench:handlers`: CPU per call of the keyed list's route handlers, Sundown's and the anchor's
// (bench/anchor), REST and MCP in both eras, called in process with no HTTP server in between. Under load on a shared
// 2-core machine a ratio between two servers moves by a third from run to run (bench/findings.md); here the six
// handlers alternate in one process, round after round, so what differs is the handlers' own work.
//
// Needs PostgreSQL (the anchor reads it) with Sundown's schema and the demo data:
//   DATABASE_URL=postgresql://… node bin/sundown.mjs db migrate && … node bin/sundown.mjs seed --demo
//   DATABASE_URL=postgresql://… npm run bench:handlers [-- --calls 500 --rounds 8]
// Without REDIS_URL both sides keep the rate-limit window in memory.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "500" }, rounds: { type: "string", default: "8" } },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
if (!process.env.DATABASE_URL) throw new Error("bench:handlers needs DATABASE_URL: the anchor reads PostgreSQL");
process.env.SUNDOWN_LOG_LEVEL = "silent";
// Counted, never refused: the calls would otherwise run out the key's minute.
process.env.SUNDOWN_RATE_LIMIT = "10000000";

const { mintKey } = await import("../tests/helpers/keys");
const { toolCallInit } = await import("../tests/helpers/mcp-client");
const sundownRest = (await import("@/app/api/v1/reports/route")).GET;
const sundownMcp = (await import("@/app/api/mcp/route")).POST;
const anchorRest = (await import("./anchor/app/api/v1/reports/route")).GET;
const anchorMcp = (await import("./anchor/app/api/mcp/route")).POST;

const { key } = await mintKey("acme");
const auth = { Authorization: `Bearer ${key}` };
const routeContext = { params: Promise.resolve({}) };
const LIST = "http://localhost:3000/api/v1/reports";
const MCP = "http://localhost:3000/api/mcp";
const mcpCall = (era: "2025-11-25" | "2026-07-28") => () =>
  new Request(MCP, toolCallInit(era, "list_reports", {}, auth));

const HANDLERS: { label: string; call: () => Promise<Response> }[] = [
  { label: "Sundown REST", call: () => sundownRest(new Request(LIST, { headers: auth }), routeContext) },
  { label: "anchor REST", call: () => anchorRest(new Request(LIST, { headers: auth })) },
  { label: "Sundown MCP 2025-11-25", call: () => sundownMcp(mcpCall("2025-11-25")(), routeContext) },
  { label: "anchor MCP 2025-11-25", call: () => anchorMcp(mcpCall("2025-11-25")()) },
  { label: "Sundown MCP 2026-07-28", call: () => sundownMcp(mcpCall("2026-07-28")(), routeContext) },
  { label: "anchor MCP 2026-07-28", call: () => anchorMcp(mcpCall("2026-07-28")()) },
];

// Warm: modules loaded, code optimized, the key and contact details held; a wrong answer stops the bench here.
for (const { label, call } of HANDLERS) {
  for (let i = 0; i < 300; i++) {
    const response = await call();
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${label} answered ${response.status}: ${body.slice(0, 200)}`);
  }
}

const perCall = new Map<string, number[]>(HANDLERS.map(({ label }) => [label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const { label, call } of HANDLERS) {
    const before = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await (await call()).text();
    const spent = process.cpuUsage(before);
    perCall.get(label)!.push((spent.user + spent.system) / CALLS);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const cost = new Map([...perCall].map(([label, samples]) => [label, median(samples)]));
console.log(`CPU per call in process, median of ${ROUNDS} rounds of ${CALLS} (Node ${process.versions.node}):`);
for (const { label } of HANDLERS) console.log(`  ${label.padEnd(24)} ${cost.get(label)!.toFixed(0).padStart(5)} µs`);
const ratio = (a: string, b: string) => (cost.get(a)! / cost.get(b)!).toFixed(2);
console.log(
  `Sundown ÷ anchor: REST ${ratio("Sundown REST", "anchor REST")}×, MCP 2025-11-25 ` +
    `${ratio("Sundown MCP 2025-11-25", "anchor MCP 2025-11-25")}×, MCP 2026-07-28 ` +
    `${ratio("Sundown MCP 2026-07-28", "anchor MCP 2026-07-28")}×`,
);
console.log(
  `MCP ÷ REST: Sundown ${ratio("Sundown MCP 2025-11-25", "Sundown REST")}× / ` +
    `${ratio("Sundown MCP 2026-07-28", "Sundown REST")}×, anchor ${ratio("anchor MCP 2025-11-25", "anchor REST")}× / ` +
    `${ratio("anchor MCP 2026-07-28", "anchor REST")}×`,
);
process.exit(0);
