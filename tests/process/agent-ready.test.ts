import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observe } from "@/scripts/agent-ready/observe";
import type { YardstickScore } from "@/scripts/agent-ready/types";
import { readFloors, scoreAll } from "@/scripts/agent-ready/yardsticks";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-server";

// `npm run agent-ready` as CI runs it: the production build scanned over real HTTP and MCP the way the
// scanners do, every yardstick at or above its floor (scripts/agent-ready/floors.json). A change that loses a
// Link header, a well-known document or a tool's description fails here, naming the check.
let t: McpTestServer;
let scores: YardstickScore[];

beforeAll(async () => {
  t = await startMcpTestServer();
  scores = scoreAll(await observe(t.server.url, (await t.mintKey()).key));
}, 120_000);

afterAll(async () => {
  await t?.server.stop();
});

describe("agent readiness of the production build", () => {
  it.each(Object.entries(readFloors()))("%s stays at or above its floor %d", (yardstick, floor) => {
    const score = scores.find((s) => s.yardstick === yardstick);
    const failing = score?.checks.filter((c) => c.outcome === "fail").map((c) => `${c.name}: ${c.reason}`);
    expect(score?.score, `${yardstick} failing checks:\n${failing?.join("\n")}`).toBeGreaterThanOrEqual(floor);
  });
});
