import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The CLI runs from any directory, the server from the checkout: both must land on the same
// migrations and the same embedded database. (Vitest runs unit files in child processes, so
// changing this one's directory affects no other file.) The modules load only after the move, as in a
// process started elsewhere.

const ROOT = path.resolve(import.meta.dirname, "../..");
const elsewhere = mkdtempSync(path.join(os.tmpdir(), "sundown-cwd-"));
const original = process.cwd();

let parseEnv: typeof import("@/lib/env").parseEnv;
let readMigrations: typeof import("@/lib/db/migrate").readMigrations;

beforeAll(async () => {
  process.chdir(elsewhere);
  ({ parseEnv } = await import("@/lib/env"));
  ({ readMigrations } = await import("@/lib/db/migrate"));
});
afterAll(() => {
  process.chdir(original);
  rmSync(elsewhere, { recursive: true, force: true });
});

describe("run from outside the checkout", () => {
  it("the default embedded database is the project's own .data, not one in the current directory", () => {
    expect(parseEnv({ NODE_ENV: "test" }).dataDir).toBe(path.join(ROOT, ".data"));
  });

  it("a SUNDOWN_DATA_DIR set by the user wins; a relative one is relative to the current directory", () => {
    expect(parseEnv({ NODE_ENV: "test", SUNDOWN_DATA_DIR: "mine" }).dataDir).toBe(path.join(elsewhere, "mine"));
    expect(parseEnv({ NODE_ENV: "test", SUNDOWN_DATA_DIR: "/srv/sundown" }).dataDir).toBe("/srv/sundown");
    expect(parseEnv({ NODE_ENV: "test", SUNDOWN_DATA_DIR: "memory://x" }).dataDir).toBe("memory://x");
  });

  it("the migrations are read from the checkout", async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    for (const { name } of migrations)
      expect(existsSync(path.join(ROOT, "prisma/migrations", name, "migration.sql"))).toBe(true);
  });
});
