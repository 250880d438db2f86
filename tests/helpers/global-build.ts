import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// Process tests run the production build. Rebuild only when a source file is newer than the build.
const ROOT = path.resolve(import.meta.dirname, "../..");
// The stdio package's manifest too: llms.txt names the package from it.
const SOURCES = [
  "app",
  "components",
  "lib",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package-lock.json",
  "prisma",
  "packages/mcp-stdio/package.json",
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export default function setup() {
  const buildId = path.join(ROOT, process.env.SUNDOWN_DIST_DIR ?? ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  if (built > newest && process.env.SUNDOWN_TEST_REBUILD !== "1") return;
  console.log("[process tests] building the production server (next build)…");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
}
