import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "@/lib/project-root";
import { fail, pass, warn, type Verdict } from "./check";

// Whether this Node runs Sundown, and for how long it will be supported. Which versions run it is
// package.json's `engines.node` (one place, which npm also reads); the end-of-life dates are Node's release
// schedule (nodejs.org/en/about/previous-releases).

/** The long-term-support lines, and the day each stops receiving security fixes. */
const LTS_END_OF_LIFE: Readonly<Record<number, string>> = {
  20: "2026-04-30",
  22: "2027-04-30",
  24: "2028-04-30",
};
/** What production should run: the line CI tests on and the serverless platforms default to. */
const PRODUCTION_LINE = 24;
const PRODUCTION_FIX = `Run production on Node ${PRODUCTION_LINE} LTS (supported until ${LTS_END_OF_LIFE[PRODUCTION_LINE]}).`;

type Version = [major: number, minor: number, patch: number];

function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator of an npm range: ^1.2.3, ~1.2.3, >=1.2, >1, <=1, <2, =1.2.3 or 1.2.3. */
function satisfiesComparator(version: Version, comparator: string): boolean {
  const match = /^(\^|~|>=|>|<=|<|=)?\s*(.+)$/.exec(comparator);
  const bound = match && parseVersion(match[2]!);
  if (!bound) throw new Error(`cannot read "${comparator}" in package.json engines.node`);
  const order = compare(version, bound);
  switch (match[1]) {
    case "^":
      return order >= 0 && version[0] === bound[0];
    case "~":
      return order >= 0 && version[0] === bound[0] && version[1] === bound[1];
    case ">=":
      return order >= 0;
    case ">":
      return order > 0;
    case "<=":
      return order <= 0;
    case "<":
      return order < 0;
    default:
      return order === 0;
  }
}

/** npm's range syntax, the subset `engines` fields use: comparator sets joined by ||, each all of its comparators. */
export function satisfiesRange(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  return range
    .split("||")
    .map((set) => set.trim().split(/\s+/).filter(Boolean))
    .some((set) => set.length > 0 && set.every((comparator) => satisfiesComparator(parsed, comparator)));
}

/** package.json's `engines.node`, e.g. "^20.19.0 || ^24.0.0". */
export function supportedNodeRange(): string {
  const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    engines?: { node?: string };
  };
  const range = manifest.engines?.node;
  if (!range) throw new Error("package.json has no engines.node");
  return range;
}

/** The verdict on Node `version` (process.version), given the supported range and today's date. */
export function nodeVersionVerdict(version: string, range: string, today: Date): Verdict {
  const label = `Node ${version.replace(/^v/, "")}`;
  if (!satisfiesRange(version, range)) {
    return fail(`${label} is not a version Sundown supports (${range})`, `Install Node ${PRODUCTION_LINE} LTS.`);
  }
  const major = parseVersion(version)![0];
  const endOfLife = LTS_END_OF_LIFE[major];
  if (!endOfLife) return pass(label);
  if (today.toISOString().slice(0, 10) > endOfLife) {
    return warn(
      `${label}: Node ${major} reached end of life on ${endOfLife} and gets no security fixes`,
      PRODUCTION_FIX,
    );
  }
  return pass(`${label}, supported until ${endOfLife}`);
}
