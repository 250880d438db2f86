import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Lets several builds (tests, benchmarks) live side by side; defaults to .next.
  distDir: process.env.SUNDOWN_DIST_DIR ?? ".next",
  // PGlite loads its WebAssembly and data files relative to its own module: keep these out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "ioredis"],
  // Migrations are read at run time by the embedded database and the CLI.
  outputFileTracingIncludes: { "/*": ["./prisma/migrations/**/*"] },
  // The whole tree (app, lib, tests, e2e, bench) is type-checked once by `npm run typecheck`, which CI runs
  // before anything else; checking again inside every build only slows builds and ties them to test files.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
