import type { CheckStatus, DoctorReport } from "@/lib/doctor/check";
import { printableJson } from "./printable";

// `sundown doctor`'s two outputs: one line per check for people, with its fix beneath it; and for scripts,
// `{"ok", "checks": [{"name", "status", "detail", "fix"?}]}` exactly.

const MARKS: Record<CheckStatus, string> = { pass: "✓", warn: "!", fail: "✗" };

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Expects strings already made printable (printableStrings), as every human format here does. */
export function formatDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const indent = " ".repeat(width + 4);
  const lines = report.checks.flatMap(({ name, status, detail, fix }) => [
    `${MARKS[status]} ${name.padEnd(width)}  ${detail}`,
    ...(fix ? [`${indent}fix: ${fix}`] : []),
  ]);
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  const summary =
    failures > 0
      ? `${count(failures, "check")} failed${warnings ? `, ${count(warnings, "warning")}` : ""}.`
      : warnings > 0
        ? `No failures; ${count(warnings, "warning")}.`
        : "All checks passed.";
  return [...lines, "", summary].join("\n");
}

export function doctorReportJson(report: DoctorReport): string {
  return printableJson({
    ok: report.ok,
    checks: report.checks.map(({ name, status, detail, fix }) => ({ name, status, detail, ...(fix ? { fix } : {}) })),
  });
}
