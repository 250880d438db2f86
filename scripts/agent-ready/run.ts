// npm run agent-ready [-- --url http://host:port --key sdn_sk_…]
//
// Scores a running Sundown against the agent-readiness yardsticks (docs/agent-ready.md) and prints a table with
// every check. Without --url it starts the production build itself (`next start` from $SUNDOWN_DIST_DIR, default
// .next, on a fresh embedded database) and mints a key with the operator CLI. Exits 1 when a yardstick scores
// below its floor in floors.json, 2 when it cannot run.
import { parseArgs } from "node:util";
import { startMcpTestServer } from "@/tests/helpers/mcp-server";
import { observe } from "./observe";
import { formatScores } from "./report";
import { belowFloors, readFloors, scoreAll } from "./yardsticks";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { url: { type: "string" }, key: { type: "string" } } });
  if (values.url && !values.key) {
    console.error("--url needs --key: an API key with reports:read and team:read on that server, for MCP.");
    return 2;
  }
  const started = values.url ? undefined : await startMcpTestServer();
  try {
    const url = values.url ?? started!.server.url;
    const key = values.key ?? (await started!.mintKey()).key;
    const scores = scoreAll(await observe(url, key));
    const floors = readFloors();
    console.log(`Agent readiness of ${url}\n`);
    console.log(formatScores(scores, floors));
    const below = belowFloors(scores, floors);
    for (const sentence of below) console.error(`\nBELOW FLOOR ${sentence}`);
    return below.length > 0 ? 1 : 0;
  } finally {
    await started?.server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
