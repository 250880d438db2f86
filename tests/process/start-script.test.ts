import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/server";
import { startCommand } from "../helpers/start-command";

// `npm start`'s Node flags, run as the start script runs them: the compile cache it turns on (scripts/compile-cache.mjs)
// lands in the build's cache directory where Node has one (22.1 and later), and Node 20 starts with the same flags.
const run = promisify(execFile);
// Parsed as the bench and the process and browser tests parse them, which start their servers with the same flags.
const NODE_FLAGS = startCommand().nodeFlags;
// Node 22.1 and later (the types this project builds with are Node 20's).
const HAS_COMPILE_CACHE = "enableCompileCache" in module;
const distDir = mkdtempSync(path.join(os.tmpdir(), "sundown-dist-"));

afterAll(() => rmSync(distDir, { recursive: true, force: true }));

async function startFlagsRun(source: string): Promise<string> {
  const { stdout } = await run(process.execPath, [...NODE_FLAGS, "-e", source], {
    cwd: ROOT,
    env: { ...process.env, SUNDOWN_DIST_DIR: distDir },
  });
  return stdout.trim();
}

describe("npm start's Node flags", () => {
  it("are node flags before Next.js's start command", () => {
    expect(NODE_FLAGS).toContain("--import=./scripts/compile-cache.mjs");
  });

  it.runIf(HAS_COMPILE_CACHE)("keep V8's compiled code in the build's cache directory", async () => {
    const dir = await startFlagsRun(
      "require('node:module').flushCompileCache(); console.log(require('node:module').getCompileCacheDir())",
    );
    expect(dir.startsWith(path.join(distDir, "cache", "node-compile"))).toBe(true);
    expect(readdirSync(path.join(distDir, "cache", "node-compile")).length).toBeGreaterThan(0);
  });

  it.runIf(!HAS_COMPILE_CACHE)("start a Node without a compile cache as before", async () => {
    expect(await startFlagsRun("console.log('started')")).toBe("started");
  });
});
