import { describe, expect, it } from "vitest";
import { describeStatuses, judgeLoadCheck, MINIMUM_REQUESTS } from "@/bench/load-check-verdict";

function result(overrides: Partial<Parameters<typeof judgeLoadCheck>[0]> = {}) {
  return { requests: 5000, statuses: { "200": 5000 }, errors: 0, timeouts: 0, ...overrides };
}

describe("judgeLoadCheck", () => {
  it("passes a run whose every answer is 2xx", () => {
    expect(judgeLoadCheck(result())).toEqual({ passed: true, failures: [] });
    expect(judgeLoadCheck(result({ statuses: { "200": 4990, "204": 10 } })).passed).toBe(true);
  });

  it.each([
    ["one 500", { statuses: { "200": 4999, "500": 1 } }, /1 responses were 5xx \(500×1\)/],
    ["503s of an exhausted pool", { statuses: { "200": 4000, "503": 1000 } }, /1000 responses were 5xx \(503×1000\)/],
    ["429s of a limit that refused", { statuses: { "200": 4990, "429": 10 } }, /10 responses were neither 2xx nor 5xx/],
    ["a connection error", { errors: 1 }, /1 requests errored \(0 of them timed out\)/],
    ["a timeout", { errors: 2, timeouts: 2 }, /2 requests errored \(2 of them timed out\)/],
    ["a timeout reported without its error", { timeouts: 1 }, /1 requests errored \(1 of them timed out\)/],
    ["too few requests", { requests: 99, statuses: { "200": 99 } }, /only 99 requests were answered/],
    ["no requests at all", { requests: 0, statuses: {} }, /only 0 requests were answered/],
  ])("fails %s", (_name, overrides, reason) => {
    const verdict = judgeLoadCheck(result(overrides));
    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toEqual([expect.stringMatching(reason)]);
  });

  it("names every reason when several fail at once", () => {
    const verdict = judgeLoadCheck({
      requests: 10,
      statuses: { "200": 5, "500": 3, "401": 2 },
      errors: 4,
      timeouts: 1,
    });
    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toHaveLength(4);
  });

  it("holds a run to the minimum it is given", () => {
    expect(MINIMUM_REQUESTS).toBe(100);
    expect(judgeLoadCheck(result({ requests: 100, statuses: { "200": 100 } })).passed).toBe(true);
    expect(judgeLoadCheck(result({ requests: 100, statuses: { "200": 100 } }), 101).passed).toBe(false);
  });
});

describe("describeStatuses", () => {
  it("lists the codes in order, only those asked for", () => {
    const statuses = { "503": 2, "200": 10, "500": 1 };
    expect(describeStatuses(statuses)).toBe("200×10 500×1 503×2");
    expect(describeStatuses(statuses, (code) => code.startsWith("5"))).toBe("500×1 503×2");
  });
});
