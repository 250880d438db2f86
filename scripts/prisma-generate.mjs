#!/usr/bin/env node
// Generates the Prisma client into lib/generated/prisma.
// `prisma generate` needs no database engine, but the CLI still tries to download one on start-up,
// which fails on machines without internet. Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file
// stops that download; generation itself runs in WebAssembly and is unaffected.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate"], { env, stdio: ["ignore", "pipe", "inherit"] });
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? "");
  process.exit(result.status ?? 1);
}
