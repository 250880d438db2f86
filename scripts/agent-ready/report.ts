import type { Floors } from "./yardsticks";
import type { YardstickScore } from "./types";

// The table `npm run agent-ready` prints: one row per yardstick, then each check with why it passed or failed.

const MARK = { pass: "PASS", fail: "FAIL", neutral: "----" } as const;

export function formatScores(scores: YardstickScore[], floors: Floors): string {
  const rows = scores.map((s) => [
    s.yardstick,
    String(s.score),
    String(s.max),
    String(floors[s.yardstick] ?? "-"),
    s.verdict,
  ]);
  const header = ["yardstick", "score", "max", "floor", "verdict"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const details = scores.flatMap((s) => [
    "",
    `${s.yardstick}: ${s.score}/${s.max}`,
    ...s.checks.map((c) => `  ${MARK[c.outcome]}  ${c.name} — ${c.reason}`),
  ]);
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), ...details].join("\n");
}
