import { readFileSync } from "node:fs";
import path from "node:path";
import { scoreCloudflare } from "./cloudflare";
import { scoreGlama } from "./glama";
import { scoreJentic } from "./jentic";
import { scoreSmithery } from "./smithery";
import type { Observation, YardstickScore } from "./types";

// The yardsticks, in the order they are printed, and the floors CI holds them to (floors.json: each one's
// score when it was last raised). A score below its floor fails `npm run agent-ready` and the process test.

const YARDSTICKS = [scoreCloudflare, scoreGlama, scoreJentic, scoreSmithery];

export function scoreAll(observation: Observation): YardstickScore[] {
  return YARDSTICKS.map((score) => score(observation));
}

export type Floors = Record<string, number>;

export function readFloors(): Floors {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "floors.json"), "utf8")) as Floors;
}

/** The yardsticks below their floor, each as a sentence; a yardstick without a floor is never below it. */
export function belowFloors(scores: YardstickScore[], floors: Floors): string[] {
  return scores
    .filter((s) => s.score < (floors[s.yardstick] ?? -Infinity))
    .map((s) => `${s.yardstick}: ${s.score} is below its floor ${floors[s.yardstick]}`);
}
