import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";
import { nextStartArgs } from "./tests/helpers/start-command";

// Browser tests run the production build (`npm run build` first; SUNDOWN_DIST_DIR picks the build directory)
// as `npm start` runs it (its Node and Next.js flags) on a free port, against a fresh embedded database in a
// temporary directory, or against SUNDOWN_E2E_DATABASE_URL, a migrated PostgreSQL database with the demo data
// (.ci/operator-path runs the sign-in and key specs that way, directly and through a connection pooler).
// Playwright loads this file in the runner and again in every worker: the port, data directory and secret are
// chosen once and handed down through the environment, so all of them agree.

function freePortSync(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

process.env.SUNDOWN_E2E_PORT ??= String(freePortSync());
process.env.SUNDOWN_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "sundown-e2e-"));
process.env.SUNDOWN_E2E_SECRET ??= randomBytes(32).toString("base64url");

/** One word for the shell Playwright runs the server's command with. */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

const port = Number(process.env.SUNDOWN_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two cores: the server and the browsers share them.
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: [process.execPath, ...nextStartArgs(port)].map(shellWord).join(" "),
    url: `${baseURL}/api/v1`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      // Empty means unset (lib/env.ts): the embedded database, unless a PostgreSQL one is asked for.
      DATABASE_URL: process.env.SUNDOWN_E2E_DATABASE_URL ?? "",
      SUNDOWN_DATA_DIR: process.env.SUNDOWN_E2E_DATA_DIR,
      SUNDOWN_URL: baseURL,
      NEXTAUTH_URL: baseURL,
      NEXTAUTH_SECRET: process.env.SUNDOWN_E2E_SECRET,
      SUNDOWN_LOG_LEVEL: "warn",
      // The browser tests sign in as the demo's people: `npm start` seeds it only when asked.
      SUNDOWN_DEMO: "1",
      SUNDOWN_DIST_DIR: process.env.SUNDOWN_DIST_DIR ?? ".next",
      // The webhooks spec's receiver listens on loopback, which the URL rules refuse unless listed here.
      SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*,localhost:*",
    },
  },
});
