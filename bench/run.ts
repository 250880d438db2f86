// `npm run bench`: throughput, latency, CPU and memory of the REST API and MCP endpoint of the
// production build, with the budget of issue 7 checked as ratios taken in the same run.
// A report, not a test: a missed budget prints MISSED and still exits 0; only a bench that cannot
// run at all exits non-zero.
//
//   npm run bench                      full run: build, 10 s per point, 3 runs, c=10 and c=100
//   npm run bench -- --quick           smoke run for CI: ~1 s per point, 1 run, c=10 (every scenario)
//   npm run bench -- --no-build        reuse the existing build in $SUNDOWN_DIST_DIR (default .next-bench)
//   npm run bench -- --keep-seed bench/out/seed.json   PostgreSQL: seed once and keep the organization for later runs
//   npm run bench -- --cpu-prof --only reports --no-build    profile the server on one scenario
//
// Other options: --runs N, --duration S, --warmup S, --connections 10,100, --cold-starts N,
// --only root,reports,anchor-reports,report,report-1mb,team,me,me-malformed,mcp-list-reports,mcp-list-reports-2026,
// anchor-mcp-list-reports,anchor-mcp-list-reports-2026,reports-week,reports-member,reports-search,briefing-30d,
// reports-expand,reports-page200 (the anchor's scenarios on PostgreSQL only; the last six, the report history's
// points, at c=10 only).
// DATABASE_URL (and REDIS_URL or UPSTASH_REDIS_REST_URL) run the server on PostgreSQL (and Redis); without
// them on a fresh embedded database. Only a complete default run writes bench/results.md; others write
// bench/out/results-*.md.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { startCommand } from "@/tests/helpers/start-command";
import { describeMachine, limiterStore, loadAverage, type Machine } from "./machine";
import { postgresCpuMs, sampleRss, treeCpuMs, treeMaxHwmMiB } from "./proc";
import { summarizeProfile, type ProfileSummary, type TimeWindow } from "./profile";
import { ANCHOR_SCENARIO, buildScenarios, preflight, type Scenario } from "./scenarios";
import { keptSeedPostgres, postgresVersion, seedEmbedded, seedPostgres, type BenchFixture } from "./seed";
import {
  ANCHOR_DIR,
  buildExists,
  buildServer,
  ROOT,
  startBenchServer,
  type ReadyCheck,
  type RunningServer,
} from "./server";
import {
  checkBudgets,
  pairedRatios,
  formatVerdict,
  median,
  renderMarkdownTable,
  renderTextTable,
  summarizePoint,
  type BudgetVerdict,
  type PairedSlices,
  type PointSummary,
  type RunMeasurement,
} from "./stats";
import { startLoadWorker, type LoadWorker } from "./worker-client";

const OUT_DIR = path.join(ROOT, "bench/out");
const RESULTS_FILE = path.join(ROOT, "bench/results.md");
const FINDINGS_FILE = path.join(ROOT, "bench/findings.md");
/** Limits that count every request but never refuse one during the bench (the env's upper bound). */
const BENCH_RATE_LIMIT = "10000000";
const UNDER_LOAD = 1.5;
/** The anchor budget's alternating slices: Sundown's keyed list, then the anchor's, this many times, this long each. */
const PAIRED_SLICES = 10;
const PAIRED_SLICE_SECONDS = 1;

interface Settings {
  quick: boolean;
  build: boolean;
  runs: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  only?: string[];
  coldStarts: number;
  cpuProfile: boolean;
  distDir: string;
  /** PostgreSQL: a file to keep the seeded organization's fixture in, for later runs (--keep-seed). */
  keepSeed?: string;
  /** Whether this run is the complete, default measurement that belongs in bench/results.md. */
  canonical: boolean;
}

function readSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
      "keep-seed": { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
      runs: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      only: { type: "string" },
      "cold-starts": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(
      readFileSync(import.meta.filename, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("//"))
        .join("\n"),
    );
    process.exit(0);
  }
  const number = (text: string | undefined, fallback: number, name: string) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  const quick = values.quick;
  const connections = values.connections
    ? values.connections.split(",").map((c) => number(c, 0, "connections"))
    : quick
      ? [10]
      : [10, 100];
  const only = values.only?.split(",").map((s) => s.trim());
  const settings: Settings = {
    quick,
    build: !values["no-build"],
    runs: Math.round(number(values.runs, quick ? 1 : 3, "runs")),
    durationSeconds: number(values.duration, quick ? 1 : 10, "duration"),
    warmupSeconds: number(values.warmup, quick ? 0.5 : 3, "warmup"),
    connections,
    only,
    // The main server's own start is always one sample; these are the extra restarts.
    coldStarts: Math.round(number(values["cold-starts"], quick ? 1 : 5, "cold-starts")),
    cpuProfile: values["cpu-prof"],
    distDir: process.env.SUNDOWN_DIST_DIR ?? ".next-bench",
    keepSeed: values["keep-seed"],
    canonical: false,
  };
  settings.canonical =
    !quick && !only && !values["cpu-prof"] && !values.runs && !values.duration && !values.connections && !values.warmup;
  return settings;
}

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

interface Database {
  kind: string;
  fixture: BenchFixture;
  serverEnv: Record<string, string | undefined>;
  /** What the anchor needs to read the same data; absent on the embedded database, which one process owns. */
  anchorEnv?: Record<string, string>;
  cleanUp(): Promise<void>;
}

async function prepareDatabase(settings: Settings): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    progress(
      settings.keepSeed
        ? `the benchmark organization of ${settings.keepSeed}, or seeded and kept there…`
        : "seeding the benchmark organization in PostgreSQL (DATABASE_URL)…",
    );
    const { fixture, cleanUp } = settings.keepSeed
      ? { fixture: await keptSeedPostgres(url, settings.keepSeed), cleanUp: async () => closeDb() }
      : await seedPostgres(url);
    progress(seeded(fixture));
    const version = await postgresVersion();
    const pool = getEnv().DATABASE_POOL_MAX;
    return {
      kind: `PostgreSQL ${version} (DATABASE_URL, DATABASE_POOL_MAX ${pool})`,
      fixture,
      serverEnv: { DATABASE_URL: url },
      anchorEnv: { DATABASE_URL: url },
      cleanUp,
    };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "sundown-bench-"));
  progress(`seeding the benchmark organization in a fresh embedded database (${dataDir})…`);
  const fixture = await seedEmbedded(dataDir);
  progress(seeded(fixture));
  return {
    kind: "embedded PGlite (fresh temporary SUNDOWN_DATA_DIR)",
    fixture,
    serverEnv: { SUNDOWN_DATA_DIR: dataDir, SUNDOWN_ALLOW_EMBEDDED: "1", DATABASE_URL: undefined },
    cleanUp: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

function seeded(fixture: BenchFixture): string {
  return `seeded ${fixture.size.reports} reports over ${fixture.size.days} days in ${fixture.seedSeconds.toFixed(1)} s`;
}

// PostgreSQL's CPU is read from /proc, so only for a server on this machine (a pooler in between is fine).
const localPostgres = ["127.0.0.1", "localhost", "[::1]"].includes(
  URL.canParse(process.env.DATABASE_URL ?? "") ? new URL(process.env.DATABASE_URL!).hostname : "",
);

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Waits until the server has worked off what the previous run left in flight (autocannon drops its
 * open requests when a run ends, the server still completes them): one answered request means the
 * queue is empty, so no point starts behind another's leftovers.
 */
async function settle(url: string): Promise<void> {
  const response = await fetch(`${url}/api/v1`);
  await response.arrayBuffer();
}

function measuredAt(scenario: Scenario, connections: number): boolean {
  return !scenario.concurrency || scenario.concurrency.includes(connections);
}

async function measurePoint(
  worker: LoadWorker,
  server: RunningServer,
  scenario: Scenario,
  connections: number,
  durationSeconds: number,
  windows: TimeWindow[],
): Promise<RunMeasurement> {
  await settle(server.url);
  const rss = sampleRss(server.pid);
  const cpuBefore = treeCpuMs(server.pid);
  const dbCpuBefore = localPostgres ? postgresCpuMs() : Number.NaN;
  const startUs = monotonicUs();
  const result = await worker.run({ url: server.url, connections, durationSeconds, requests: scenario.requests });
  windows.push({ startUs, endUs: monotonicUs() });
  const cpuAfter = treeCpuMs(server.pid);
  const dbCpuAfter = localPostgres ? postgresCpuMs() : Number.NaN;
  return {
    requests: result.requests,
    durationSeconds: result.durationSeconds,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    statuses: result.statuses,
    errors: result.errors,
    cpuMs: cpuAfter - cpuBefore,
    dbCpuMs: dbCpuAfter - dbCpuBefore,
    peakRssMiB: rss.stop(),
  };
}

interface Outcome {
  settings: Settings;
  machine: Machine;
  loadAfter: number;
  database: string;
  limiter: string;
  logLevel: string;
  fixture: BenchFixture;
  broken: Map<string, string>;
  points: PointSummary[];
  coldStarts: number[];
  /** The anchor's, spawned between Sundown's: the floor of a bare Next.js route on this machine today. */
  anchorColdStarts: number[];
  hwmMiB: number;
  verdicts: BudgetVerdict[];
  profile?: Profiles;
  startedAt: Date;
  elapsedSeconds: number;
}

function formatMachine(o: Outcome): string[] {
  const m = o.machine;
  const command = startCommand();
  return [
    `- CPU: ${m.cpu}, ${m.cores} cores; RAM ${m.memoryGiB} GiB; ${m.os}`,
    `- Node ${m.node}, Next ${m.next} (\`${["node", ...command.nodeFlags, "next start", ...command.nextFlags].join(" ")}\` as \`npm start\` runs it, build in \`${o.settings.distDir}\`); commit ${m.commit}`,
    `- Database: ${o.database}; rate-limit store: ${o.limiter} (SUNDOWN_RATE_LIMIT and SUNDOWN_ADDRESS_RATE_LIMIT=${BENCH_RATE_LIMIT}: counted, never refused); server log level: ${o.logLevel}`,
    `- Data: ${o.fixture.size.reports} reports over ${o.fixture.size.days} days (seeded in ${o.fixture.seedSeconds.toFixed(0)} s), ` +
      `${o.fixture.size.members} members, ${o.fixture.size.keys} keys in one organization; ` +
      `keyed scenarios rotate over 16 keys (and 16 report ids, weeks or members); ` +
      `"${o.fixture.commonWord.word}" matches ${(100 * o.fixture.commonWord.share).toFixed(0)}% of the reports`,
    `- Load: autocannon in a separate process on the same machine (it competes with the server for the cores), ${o.settings.durationSeconds} s per point after a ${o.settings.warmupSeconds} s warm-up, ` +
      `${o.settings.runs} run(s) per point (medians; runs of all scenarios interleaved), concurrency ${o.settings.connections.join(" and ")}`,
    `- Load average (1 min): ${m.loadBefore.toFixed(2)} before the bench, ${o.loadAfter.toFixed(2)} after`,
  ];
}

function describeColdStarts(samples: number[], anchorSamples: number[]): string {
  if (samples.length === 0) return "cold start: not measured (--cpu-prof)";
  const list = (of: number[]) =>
    `median ${median(of).toFixed(0)} ms over ${of.length} start(s): ${of.map((c) => c.toFixed(0)).join(", ")} ms`;
  const sundown = `cold start: ${list(samples)}`;
  if (anchorSamples.length === 0) return sundown;
  const ratio = median(samples) / median(anchorSamples);
  return `${sundown}; the anchor's, spawned alternately: ${list(anchorSamples)} (Sundown ÷ anchor ${ratio.toFixed(2)}×)`;
}

function renderResults(o: Outcome): string {
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const lines = [
    "# Sundown benchmark results",
    "",
    `Taken ${o.startedAt.toISOString()} with \`${command}\` (${Math.round(o.elapsedSeconds)} s in all).`,
    "",
  ];
  if (o.machine.loadBefore > UNDER_LOAD) {
    lines.push(
      `> **Taken under load**: the 1-minute load average was ${o.machine.loadBefore.toFixed(2)} on ${o.machine.cores} cores before the bench ` +
        "started (other processes were busy). Absolute numbers are low and noisy; the ratios compare scenarios measured side by side " +
        "and are more trustworthy, but re-run on an idle machine before quoting throughput.",
      "",
    );
  }
  lines.push("## Machine and set-up", "", ...formatMachine(o), "");
  lines.push(
    "## Results",
    "",
    renderMarkdownTable(o.points),
    "",
    "req/s, p50 and p99 are medians over the runs; latencies are client-side (autocannon), sub-millisecond resolution. " +
      "non-2xx counts every response outside 2xx over all runs (the malformed-key scenario expects its 401s); unexpected counts " +
      "statuses a correct server would not send plus connection errors. CPU ms/req is user+system time of the server's process tree " +
      "divided by the responses of the run (PostgreSQL's and Redis's own CPU are not included); peak RSS is the highest resident " +
      "memory of the tree sampled every 100 ms during the point.",
    "",
    `${describeColdStarts(o.coldStarts, o.anchorColdStarts)} (spawn of \`next start\` → first keyed 200 on /api/v1/reports, existing build, existing database). ` +
      `Server high-water mark (largest VmHWM in the tree at the end): ${o.hwmMiB.toFixed(0)} MiB.`,
    "",
  );
  if (o.broken.size > 0) {
    lines.push("## Broken scenarios", "", ...[...o.broken].map(([id, why]) => `- ${id}: ${why}`), "");
  }
  lines.push("## Budget", "", "```", ...o.verdicts.map(formatVerdict), "```", "");
  if (o.profile) lines.push("## CPU profile of this run", "", ...renderProfiles(o.profile), "");
  if (existsSync(FINDINGS_FILE)) lines.push(readFileSync(FINDINGS_FILE, "utf8").trim(), "");
  lines.push(
    "## Reproduce",
    "",
    "```sh",
    "npm run bench                 # ~10 min on 2 cores: build, then every scenario at c=10 and c=100",
    "npm run bench -- --quick      # smoke: every scenario once, ~1 s each",
    "DATABASE_URL=postgresql://… REDIS_URL=redis://… npm run bench   # on PostgreSQL + Redis",
    "```",
    "",
  );
  return lines.join("\n");
}

/** A server's profile over its measured runs, and the answers it gave in them. */
type MeasuredProfile = ProfileSummary & { requests: number };
interface Profiles {
  sundown: MeasuredProfile;
  anchor?: MeasuredProfile;
}

/**
 * Sundown's profile, and where the anchor ran, the split beside it: each category's CPU per answer in both servers
 * and the difference, which is what Sundown costs beyond the framework's floor.
 */
function renderProfiles({ sundown, anchor }: Profiles): string[] {
  const lines = renderProfile(sundown);
  if (!anchor || anchor.requests === 0 || sundown.requests === 0) return lines;
  const perRequest = (p: MeasuredProfile, name: string) =>
    ((p.categories.find((c) => c.name === name)?.ms ?? 0) * 1000) / p.requests;
  const names = [...new Set([...sundown.categories, ...anchor.categories].map((c) => c.name))];
  const rows = names
    .map((name) => ({ name, ours: perRequest(sundown, name), floor: perRequest(anchor, name) }))
    .sort((a, b) => b.ours - b.floor - (a.ours - a.floor));
  const total = (p: MeasuredProfile) => (p.totalMs * 1000) / p.requests;
  return [
    ...lines,
    "",
    `The split against the anchor (bench/anchor, the same keyed list on a bare Next.js route), CPU per answer ` +
      `(${sundown.requests} answers from Sundown, ${anchor.requests} from the anchor in the measured runs):`,
    "",
    "| where | Sundown µs/answer | anchor µs/answer | difference |",
    "|---|---:|---:|---:|",
    ...rows.map(
      (r) => `| ${r.name} | ${r.ours.toFixed(0)} | ${r.floor.toFixed(0)} | ${(r.ours - r.floor).toFixed(0)} |`,
    ),
    `| **all** | ${total(sundown).toFixed(0)} | ${total(anchor).toFixed(0)} | ${(total(sundown) - total(anchor)).toFixed(0)} |`,
  ];
}

function renderProfile(profile: ProfileSummary): string[] {
  const share = (ms: number) => `${((100 * ms) / profile.totalMs).toFixed(1)}%`;
  return [
    `Server CPU profile (\`--cpu-prof\`) of the measured runs only (start-up and warm-up excluded), ${profile.totalMs.toFixed(0)} ms of ` +
      "samples, idle excluded; self time by where the code comes from (native code charged to its nearest JavaScript caller):",
    "",
    "| where | self time | share |",
    "|---|---:|---:|",
    ...profile.categories.map((c) => `| ${c.name} | ${c.ms.toFixed(0)} ms | ${share(c.ms)} |`),
    "",
    "Top functions by self time:",
    "",
    "| function | where | self time | share |",
    "|---|---|---:|---:|",
    ...profile.functions.map(
      (f) =>
        `| \`${f.name.replaceAll("|", "\\|")}\` | ${f.where.replaceAll("|", "\\|")} | ${f.ms.toFixed(0)} ms | ${share(f.ms)} |`,
    ),
  ];
}

/** Builds the anchor, unless --no-build finds a build of it. */
function buildAnchor(settings: Settings): void {
  if (!settings.build && buildExists(settings.distDir, ANCHOR_DIR)) return;
  progress(`building the anchor (${ANCHOR_DIR}) into ${settings.distDir}…`);
  buildServer(settings.distDir, ANCHOR_DIR);
}

/**
 * Starts the anchor (built) on the same database, Redis and limits as Sundown, with the Node flags of `npm start`:
 * only the code between the request and the data differs.
 */
function startAnchor(
  settings: Settings,
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[],
  ready: ReadyCheck,
): Promise<RunningServer> {
  return startBenchServer({
    distDir: settings.distDir,
    projectDir: ANCHOR_DIR,
    env: {
      ...env,
      REDIS_URL: process.env.REDIS_URL,
      SUNDOWN_RATE_LIMIT: BENCH_RATE_LIMIT,
      DATABASE_POOL_MAX: String(getEnv().DATABASE_POOL_MAX),
    },
    logFile,
    nodeArgs,
    ready,
  });
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const settings = readSettings(process.argv.slice(2));
  const machine = describeMachine();
  mkdirSync(OUT_DIR, { recursive: true });
  if (machine.loadBefore > UNDER_LOAD) {
    progress(`load average is ${machine.loadBefore.toFixed(2)} before starting: numbers will be noisy`);
  }

  if (settings.build) {
    progress(`building the production server into ${settings.distDir}…`);
    buildServer(settings.distDir);
  } else if (!buildExists(settings.distDir)) {
    throw new Error(`no build in ${settings.distDir}; run without --no-build first`);
  }

  const database = await prepareDatabase(settings);
  const logLevel = process.env.SUNDOWN_LOG_LEVEL ?? "warn";
  const serverEnv = {
    ...database.serverEnv,
    SUNDOWN_RATE_LIMIT: BENCH_RATE_LIMIT,
    SUNDOWN_ADDRESS_RATE_LIMIT: BENCH_RATE_LIMIT,
    SUNDOWN_LOG_LEVEL: logLevel,
  };
  const profileDir = path.join(OUT_DIR, "profile");
  const anchorProfileDir = path.join(OUT_DIR, "profile-anchor");
  const profiling = (dir: string) => (settings.cpuProfile ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : []);
  const serverLog = path.join(OUT_DIR, "server.log");
  rmSync(serverLog, { force: true });
  let worker: LoadWorker | undefined;
  let server: RunningServer | undefined;
  let anchor: RunningServer | undefined;
  try {
    const coldStarts: number[] = [];
    const anchorColdStarts: number[] = [];
    // Ready means serving what an agent asks for: the first keyed list, database connection and route loaded.
    const ready = {
      path: "/api/v1/reports",
      status: 200,
      headers: { authorization: `Bearer ${database.fixture.keys[0]!}` },
    };
    const broken = new Map<string, string>();
    const scenarios = buildScenarios(database.fixture).filter(
      (s) => (!settings.only || settings.only.includes(s.id)) && (!s.anchor || database.anchorEnv),
    );
    if (scenarios.length === 0) throw new Error(`--only matched no scenario`);
    const anchorEnv = scenarios.some((s) => s.anchor) ? database.anchorEnv : undefined;
    if (anchorEnv) buildAnchor(settings);
    if (!settings.cpuProfile) {
      // Restarts on the build and database the bench then uses: what a deploy or a crash costs. The anchor starts
      // in between, to the same keyed 200: what this machine takes to start a bare Next.js route today.
      for (let i = 1; i < settings.coldStarts; i++) {
        const cold = await startBenchServer({ distDir: settings.distDir, env: serverEnv, logFile: serverLog, ready });
        coldStarts.push(cold.coldStartMs);
        await cold.stop();
        let anchorNote = "";
        if (anchorEnv) {
          const bare = await startAnchor(settings, anchorEnv, serverLog, [], ready);
          anchorColdStarts.push(bare.coldStartMs);
          anchorNote = ` (the anchor: ${bare.coldStartMs.toFixed(0)} ms)`;
          await bare.stop();
        }
        progress(`cold start ${i}: ${cold.coldStartMs.toFixed(0)} ms${anchorNote}`);
      }
    } else {
      for (const dir of [profileDir, anchorProfileDir]) rmSync(dir, { recursive: true, force: true });
    }
    server = await startBenchServer({
      distDir: settings.distDir,
      env: serverEnv,
      logFile: serverLog,
      ready,
      nodeArgs: profiling(profileDir),
    });
    if (!settings.cpuProfile) coldStarts.push(server.coldStartMs);
    progress(`server pid ${server.pid} at ${server.url} (started in ${server.coldStartMs.toFixed(0)} ms)`);

    if (!database.anchorEnv) progress(`no ${ANCHOR_SCENARIO}: the anchor reads PostgreSQL (run with DATABASE_URL)`);
    if (anchorEnv) {
      anchor = await startAnchor(settings, anchorEnv, serverLog, profiling(anchorProfileDir), ready);
      if (!settings.cpuProfile) anchorColdStarts.push(anchor.coldStartMs);
      progress(`anchor pid ${anchor.pid} at ${anchor.url} (started in ${anchor.coldStartMs.toFixed(0)} ms)`);
    }
    const serverOf = (scenario: Scenario) => (scenario.anchor ? anchor : server);
    for (const scenario of scenarios) {
      const target = serverOf(scenario);
      if (!target) continue;
      const problem = await preflight(target.url, scenario);
      if (problem) {
        broken.set(scenario.id, problem);
        progress(`BROKEN ${scenario.label}: ${problem}`);
      }
    }

    worker = startLoadWorker();
    const measured = new Map<string, RunMeasurement[]>();
    const paired: PairedSlices[] = [];
    // When each server was under measured load, and how many answers it gave then: what its profile covers.
    const measuredLoad = {
      sundown: { windows: [] as TimeWindow[], requests: 0 },
      anchor: { windows: [] as TimeWindow[], requests: 0 },
    };
    const loadOf = (scenario: Scenario) => measuredLoad[scenario.anchor ? "anchor" : "sundown"];
    for (const connections of settings.connections) {
      const atLevel = scenarios.filter((s) => measuredAt(s, connections) && serverOf(s));
      for (const scenario of atLevel) {
        await worker.run({
          url: serverOf(scenario)!.url,
          connections,
          durationSeconds: settings.warmupSeconds,
          requests: scenario.requests,
        });
      }
      // Runs of all scenarios are interleaved, so drift in the machine's load hits every scenario alike.
      for (let run = 1; run <= settings.runs; run++) {
        for (const scenario of atLevel) {
          const m = await measurePoint(
            worker,
            serverOf(scenario)!,
            scenario,
            connections,
            settings.durationSeconds,
            loadOf(scenario).windows,
          );
          loadOf(scenario).requests += m.requests;
          const key = `${scenario.id}@${connections}`;
          measured.set(key, [...(measured.get(key) ?? []), m]);
          progress(
            `c=${connections} run ${run}/${settings.runs} ${scenario.label}: ${(m.requests / m.durationSeconds).toFixed(0)} req/s, ` +
              `p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms`,
          );
        }
      }
      // The budget against the anchor, from short alternating slices of the keyed list on each server.
      const keyedList = atLevel.find((s) => s.id === "reports");
      const anchorList = atLevel.find((s) => s.id === ANCHOR_SCENARIO);
      if (anchor && keyedList && anchorList) {
        const pair = { connections, sundown: [] as RunMeasurement[], anchor: [] as RunMeasurement[] };
        for (let slice = 0; slice < (settings.quick ? 2 : PAIRED_SLICES); slice++) {
          for (const [scenario, into] of [
            [keyedList, pair.sundown],
            [anchorList, pair.anchor],
          ] as const) {
            const load = loadOf(scenario);
            const target = serverOf(scenario)!;
            const m = await measurePoint(worker, target, scenario, connections, PAIRED_SLICE_SECONDS, load.windows);
            load.requests += m.requests;
            into.push(m);
          }
        }
        paired.push(pair);
        const { cpu, db } = pairedRatios(pair);
        progress(
          `c=${connections} alternating slices: /reports ÷ anchor, CPU ${cpu.toFixed(2)}×, PostgreSQL ${db.toFixed(2)}×`,
        );
      }
    }
    const hwmMiB = treeMaxHwmMiB(server.pid);
    await worker.close();
    worker = undefined;
    await server.stop();
    server = undefined;
    await anchor?.stop();
    anchor = undefined;

    const points = settings.connections.flatMap((connections) =>
      scenarios
        .filter((s) => measuredAt(s, connections))
        .map((s) =>
          summarizePoint(
            { scenario: s.id, label: s.label, connections, expect: s.expect },
            measured.get(`${s.id}@${connections}`) ?? [],
          ),
        ),
    );
    const verdicts = checkBudgets(points, { ms: median(coldStarts), embedded: !database.anchorEnv }, paired);
    let profile: Profiles | undefined;
    if (settings.cpuProfile) {
      const summarize = (dir: string, projectDir: string, load: { windows: TimeWindow[]; requests: number }) => ({
        ...summarizeProfile(
          readdirSync(dir)
            .filter((f) => f.endsWith(".cpuprofile"))
            .map((f) => path.join(dir, f)),
          path.join(ROOT, projectDir, settings.distDir),
          load.windows,
        ),
        requests: load.requests,
      });
      profile = {
        sundown: summarize(profileDir, ".", measuredLoad.sundown),
        anchor:
          measuredLoad.anchor.requests > 0 ? summarize(anchorProfileDir, ANCHOR_DIR, measuredLoad.anchor) : undefined,
      };
    }
    const outcome: Outcome = {
      settings,
      machine,
      loadAfter: loadAverage(),
      database: database.kind,
      limiter: limiterStore(process.env),
      logLevel,
      fixture: database.fixture,
      broken,
      points,
      coldStarts,
      anchorColdStarts,
      hwmMiB,
      verdicts,
      profile,
      startedAt,
      elapsedSeconds: (Date.now() - startedAt.getTime()) / 1000,
    };

    console.log("");
    console.log(formatMachine(outcome).join("\n"));
    console.log("");
    console.log(renderTextTable(points));
    console.log("");
    console.log(`${describeColdStarts(coldStarts, anchorColdStarts)}; server VmHWM ${hwmMiB.toFixed(0)} MiB`);
    for (const [id, why] of broken) console.log(`BROKEN scenario ${id}: ${why}`);
    console.log("");
    console.log("budget:");
    for (const v of verdicts) console.log(`  ${formatVerdict(v)}`);
    if (profile) {
      console.log("");
      console.log(renderProfiles(profile).join("\n"));
    }
    const missed = verdicts.filter((v) => v.status === "MISSED").length;
    console.log("");
    console.log(
      missed > 0
        ? `MISSED ${missed} of ${verdicts.length} budget checks (a report, not a test: exit code 0)`
        : "all measured budgets met",
    );

    const file = settings.canonical
      ? RESULTS_FILE
      : path.join(OUT_DIR, settings.quick ? "results-quick.md" : "results-partial.md");
    writeFileSync(file, renderResults(outcome));
    console.log(`results written to ${path.relative(ROOT, file)}`);
    // Report generation is measured in process (bench/generate.ts): embedded, and this run's PostgreSQL if any.
    console.log("");
    execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/generate.ts")], {
      cwd: ROOT,
      stdio: "inherit",
    });
  } finally {
    await worker?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await anchor?.stop().catch(() => undefined);
    await database.cleanUp().catch((error: Error) => progress(`clean-up failed: ${error.message}`));
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`[bench] failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
