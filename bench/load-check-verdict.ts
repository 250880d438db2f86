// Whether a load check passed (bench/load-check.ts). Pure, so the rule is unit-tested
// (tests/unit/load-check-verdict.test.ts).
import type { LoadResult } from "./load-worker";

/**
 * Below this many answered requests the check proves nothing: a server that refused every connection, or a
 * run that never started, has no 5xx either.
 */
export const MINIMUM_REQUESTS = 100;

export interface LoadCheckVerdict {
  passed: boolean;
  /** Why it failed, one sentence each; empty when it passed. */
  failures: string[];
}

function count(statuses: Record<string, number>, matches: (code: string) => boolean): number {
  return Object.entries(statuses).reduce((sum, [code, n]) => sum + (matches(code) ? n : 0), 0);
}

/** Responses per status, e.g. "200×1234 503×2", in the order of the codes; only codes `matches` picks. */
export function describeStatuses(
  statuses: Record<string, number>,
  matches: (code: string) => boolean = () => true,
): string {
  return Object.entries(statuses)
    .filter(([code]) => matches(code))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code}×${n}`)
    .join(" ");
}

/**
 * Passes only when at least `minimumRequests` requests were answered, none with a 5xx, none refused or
 * otherwise outside 2xx (the mix is valid requests under a limit that never refuses, so a 4xx means the
 * check itself is broken), and no request errored or timed out.
 */
export function judgeLoadCheck(
  result: Pick<LoadResult, "requests" | "statuses" | "errors" | "timeouts">,
  minimumRequests = MINIMUM_REQUESTS,
): LoadCheckVerdict {
  const failures: string[] = [];
  const isServerError = (code: string) => code.startsWith("5");
  const isOther = (code: string) => !code.startsWith("2") && !isServerError(code);
  const serverErrors = count(result.statuses, isServerError);
  if (serverErrors > 0) {
    failures.push(`${serverErrors} responses were 5xx (${describeStatuses(result.statuses, isServerError)})`);
  }
  const others = count(result.statuses, isOther);
  if (others > 0) {
    failures.push(`${others} responses were neither 2xx nor 5xx (${describeStatuses(result.statuses, isOther)})`);
  }
  // autocannon counts every timeout among its errors as well.
  const errors = Math.max(result.errors, result.timeouts);
  if (errors > 0) failures.push(`${errors} requests errored (${result.timeouts} of them timed out)`);
  if (result.requests < minimumRequests) {
    failures.push(`only ${result.requests} requests were answered, fewer than the ${minimumRequests} a check needs`);
  }
  return { passed: failures.length === 0, failures };
}
