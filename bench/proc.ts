// CPU and memory of the server's whole process tree, read from /proc (Linux). `next start` may hand
// the work to a child process, so every figure covers the spawned process and all its descendants.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

interface StatLine {
  pid: number;
  ppid: number;
  cpuTicks: number;
}

function readStat(pid: number): StatLine | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The root and every live descendant. */
function processTree(rootPid: number): StatLine[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is StatLine => s !== undefined);
  const children = new Map<number, StatLine[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const root = all.find((s) => s.pid === rootPid);
  if (!root) return [];
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!.pid) ?? []));
  return tree;
}

/**
 * PostgreSQL's CPU on this machine so far, in milliseconds: every `postgres` process's user + system time
 * plus that of its reaped children (so backends that came and went still count, in the postmaster's share).
 */
export function postgresCpuMs(): number {
  let ticks = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "utf8");
      if (!text.includes("(postgres)")) continue;
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / clockTicks();
}

/** User + system CPU time of the tree so far, in milliseconds. */
export function treeCpuMs(rootPid: number): number {
  return (processTree(rootPid).reduce((sum, s) => sum + s.cpuTicks, 0) * 1000) / clockTicks();
}

function statusKiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of the tree right now, in MiB. */
function treeRssMiB(rootPid: number): number {
  return processTree(rootPid).reduce((sum, s) => sum + statusKiB(s.pid, "VmRSS"), 0) / 1024;
}

/** The largest per-process high-water mark (VmHWM) in the tree, in MiB. */
export function treeMaxHwmMiB(rootPid: number): number {
  return Math.max(0, ...processTree(rootPid).map((s) => statusKiB(s.pid, "VmHWM"))) / 1024;
}

/**
 * Samples the tree's resident memory until stopped; returns the highest sample in MiB. The tree is
 * listed once, so a sample reads a few small files instead of scanning /proc on a busy machine.
 */
export function sampleRss(rootPid: number, intervalMs = 100): { stop(): number } {
  const pids = processTree(rootPid).map((s) => s.pid);
  const rss = () => pids.reduce((sum, pid) => sum + statusKiB(pid, "VmRSS"), 0) / 1024;
  let peak = rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rss(), treeRssMiB(rootPid));
    },
  };
}
