import path from "node:path";
import type { NextConfig } from "next";

// The bench's anchor (app/api/v1/reports/route.ts): the same production settings as Sundown's next.config.ts where they
// touch the request path, so the ratio between the two measures our code, not a configuration difference.
const nextConfig: NextConfig = {
  poweredByHeader: false,
  distDir: process.env.SUNDOWN_DIST_DIR ?? ".next",
  serverExternalPackages: ["pg", "ioredis"],
  typescript: { ignoreBuildErrors: true },
  experimental: { preloadEntriesOnStart: false },
  // One lockfile, one node_modules: the repository's.
  turbopack: { root: path.resolve(import.meta.dirname, "../..") },
};

export default nextConfig;
