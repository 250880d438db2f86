import type { NextConfig } from "next";
import { API_REFERENCE_SCRIPT_FILE } from "./lib/discovery/api-reference-script-file";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Lets several builds (tests, benchmarks) live side by side; defaults to .next.
  distDir: process.env.SUNDOWN_DIST_DIR ?? ".next",
  // PGlite loads its WebAssembly and data files relative to its own module: keep these out of the bundle.
  // @opentelemetry/api (installed for next's optional peer and the API reference) must stay out too: minified
  // into a route chunk, its no-op tracer loses its class name, Next then takes tracing for enabled and builds
  // spans on every request (bench/findings.md, issue 25).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "ioredis",
    "@opentelemetry/api",
    "nodemailer",
  ],
  // Migrations are read at run time by the embedded database and the CLI; the docs page's API reference script
  // is served from Scalar's package as it ships (lib/discovery/api-reference-script.ts).
  outputFileTracingIncludes: {
    "/*": ["./prisma/migrations/**/*"],
    "/docs/api-reference.js": [`./${API_REFERENCE_SCRIPT_FILE}`],
  },
  // The whole tree (app, lib, tests, e2e, bench) is type-checked once by `npm run typecheck`, which CI runs
  // before anything else; checking again inside every build only slows builds and ties them to test files.
  typescript: { ignoreBuildErrors: true },
  // `next start` loads every route's modules at start-up by default (the docs page's API reference, NextAuth,
  // the MCP SDK…): time before the first answer and resident memory spent on routes an API-only
  // deployment may never serve. Each route loads on its first request instead.
  experimental: { preloadEntriesOnStart: false },
  // `npm run dev` serves its scripts to localhost only; the discovery documents print the address the client used,
  // often 127.0.0.1, where pages would otherwise never hydrate.
  allowedDevOrigins: ["127.0.0.1", "[::1]"],
};

export default nextConfig;
