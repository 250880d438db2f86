import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Lets several builds (tests, benchmarks) live side by side; defaults to .next.
  distDir: process.env.SUNDOWN_DIST_DIR ?? ".next",
  // PGlite loads its WebAssembly and data files relative to its own module: keep these out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "ioredis"],
  // Migrations are read at run time by the embedded database and the CLI.
  outputFileTracingIncludes: { "/*": ["./prisma/migrations/**/*"] },
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
