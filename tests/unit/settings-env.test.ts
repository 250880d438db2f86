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
