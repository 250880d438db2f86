#!/usr/bin/env node
import { ClientSettingsError } from "@/lib/api-client/settings";
import { runStdioServer } from "@/lib/mcp/stdio";

// The bin of @sundown-dev/mcp: `npx sundown mcp` without a checkout. It is bundled with lib/ at pack time (bundle.ts).
// A failed start is one line on stderr and exit code 1, as `sundown mcp` does; stdout carries only protocol.

try {
  await runStdioServer();
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  const message = error instanceof ClientSettingsError ? reason : `sundown-mcp: ${reason}`;
  // Exit once the message is out: an idle keep-alive socket to the server must not hold the process open.
  process.stderr.write(`${message}\n`, () => process.exit(1));
}
