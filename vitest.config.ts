import path from "node:path";
import { defineConfig } from "vitest/config";

// Projects:
//   unit      pure functions, no I/O
//   embedded  integration tests against the embedded database (PGlite, in memory)
//   postgres  the same integration tests against a real PostgreSQL (SUNDOWN_TEST_DATABASE_URL);
//             mandatory under CI=true, where a missing URL fails the run instead of skipping it
//   process   tests that start the built server and the CLI as real processes
const postgresUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
if (process.env.CI === "true" && !postgresUrl) {
  throw new Error("CI=true requires SUNDOWN_TEST_DATABASE_URL: the PostgreSQL integration tests must run in CI.");
}

const integration = ["tests/integration/**/*.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: 20_000,
    expect: { requireAssertions: true },
    hookTimeout: 120_000,
    env: { SUNDOWN_LOG_LEVEL: "silent", NODE_ENV: "test" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "embedded",
          include: integration,
          setupFiles: ["tests/helpers/setup-embedded.ts"],
          // One in-memory database per worker: PGlite's start-up costs seconds, so files share it.
          isolate: false,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: integration,
                globalSetup: ["tests/helpers/global-postgres.ts"],
                setupFiles: ["tests/helpers/setup-postgres.ts"],
                isolate: false,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: "process",
          include: ["tests/process/**/*.test.ts"],
          globalSetup: ["tests/helpers/global-build.ts"],
          testTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
