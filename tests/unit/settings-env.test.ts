import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/env";

const PG = "postgresql://u@db.example:5432/sundown";

describe("sign-in environment", () => {
  it("requires NEXTAUTH_SECRET in production with DATABASE_URL", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: PG })).toThrow(EnvError);
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: PG })).toThrow(/NEXTAUTH_SECRET is required/);
    expect(parseEnv({ NODE_ENV: "production", DATABASE_URL: PG, NEXTAUTH_SECRET: "s".repeat(32) }).NEXTAUTH_SECRET).toHaveLength(32);
  });

  it("does not require it on the embedded default or in development", () => {
    expect(parseEnv({ NODE_ENV: "production" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(parseEnv({ NODE_ENV: "development", DATABASE_URL: PG }).NEXTAUTH_SECRET).toBeUndefined();
  });

  it("refuses a short secret", () => {
    expect(() => parseEnv({ NODE_ENV: "test", NEXTAUTH_SECRET: "short" })).toThrow(/NEXTAUTH_SECRET: must be at least 16 characters/);
  });

  it("switches an OAuth provider on only with both of its variables", () => {
    expect(() => parseEnv({ NODE_ENV: "test", GITHUB_ID: "id" })).toThrow("GITHUB_ID and GITHUB_SECRET must be set together");
    expect(() => parseEnv({ NODE_ENV: "test", GOOGLE_CLIENT_SECRET: "s" })).toThrow("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together");
    expect(parseEnv({ NODE_ENV: "test", GITHUB_ID: "id", GITHUB_SECRET: "s" })).toMatchObject({ GITHUB_ID: "id", GITHUB_SECRET: "s" });
  });
});

describe("SUNDOWN_MCP_ALLOWED_ORIGINS", () => {
  it("reads a comma-separated list of origins as a browser sends them, and none by default", () => {
    expect(parseEnv({ NODE_ENV: "test" }).SUNDOWN_MCP_ALLOWED_ORIGINS).toEqual([]);
    const parsed = parseEnv({ NODE_ENV: "test", SUNDOWN_MCP_ALLOWED_ORIGINS: " https://Inspector.Example/ ,http://127.0.0.1:6274" });
    expect(parsed.SUNDOWN_MCP_ALLOWED_ORIGINS).toEqual(["https://inspector.example", "http://127.0.0.1:6274"]);
  });

  it.each(["*", "inspector.example", "https://inspector.example/mcp", "ftp://files.example", "https://user@inspector.example"])(
    "refuses %j with a message naming the entry",
    (value) => {
      expect(() => parseEnv({ NODE_ENV: "test", SUNDOWN_MCP_ALLOWED_ORIGINS: value })).toThrow(
        new RegExp(`SUNDOWN_MCP_ALLOWED_ORIGINS: "${value.replace(/[*./]/g, "\\$&")}" is not an origin`),
      );
    },
  );
});
