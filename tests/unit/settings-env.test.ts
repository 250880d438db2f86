import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, signInUrl } from "@/lib/env";

const PG = "postgresql://u@db.example:5432/sundown";

describe("sign-in environment", () => {
  it("requires NEXTAUTH_SECRET in production with DATABASE_URL", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: PG })).toThrow(EnvError);
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: PG })).toThrow(/NEXTAUTH_SECRET is required/);
    expect(
      parseEnv({ NODE_ENV: "production", DATABASE_URL: PG, NEXTAUTH_SECRET: "s".repeat(32) }).NEXTAUTH_SECRET,
    ).toHaveLength(32);
  });

  it("does not require it on the embedded default or in development", () => {
    expect(parseEnv({ NODE_ENV: "production" }).NEXTAUTH_SECRET).toBeUndefined();
    expect(parseEnv({ NODE_ENV: "development", DATABASE_URL: PG }).NEXTAUTH_SECRET).toBeUndefined();
  });

  it.each(["SUNDOWN_URL", "NEXTAUTH_URL"] as const)(
    "refuses a user name or password in %s, which every link would publish, without printing it",
    (name) => {
      for (const value of ["https://bob:hunter2-pw@sundown.example.com", "https://hunter2-token@sundown.example.com"]) {
        let message = "";
        try {
          parseEnv({ NODE_ENV: "production", [name]: value });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toContain(`${name}: must not contain a user name or password`);
        expect(message).not.toContain("hunter2");
      }
      expect(parseEnv({ NODE_ENV: "production", [name]: "https://sundown.example.com/" })[name]).toBe(
        "https://sundown.example.com/",
      );
    },
  );

  it("refuses a short secret", () => {
    expect(() => parseEnv({ NODE_ENV: "test", NEXTAUTH_SECRET: "short" })).toThrow(
      /NEXTAUTH_SECRET: must be at least 16 characters/,
    );
  });

  it("switches an OAuth provider on only with both of its variables", () => {
    expect(() => parseEnv({ NODE_ENV: "test", GITHUB_ID: "id" })).toThrow(
      "GITHUB_ID and GITHUB_SECRET must be set together",
    );
    expect(() => parseEnv({ NODE_ENV: "test", GOOGLE_CLIENT_SECRET: "s" })).toThrow(
      "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together",
    );
    expect(parseEnv({ NODE_ENV: "test", GITHUB_ID: "id", GITHUB_SECRET: "s" })).toMatchObject({
      GITHUB_ID: "id",
      GITHUB_SECRET: "s",
    });
  });
});

describe("sign-in URL", () => {
  it("in production comes from configuration: NEXTAUTH_URL, else SUNDOWN_URL's origin", () => {
    const url = (vars: Record<string, string>) => signInUrl(parseEnv({ NODE_ENV: "production", ...vars }));
    expect(url({ SUNDOWN_URL: "https://sundown.example.com/some/path" })).toBe("https://sundown.example.com");
    expect(url({ SUNDOWN_URL: "https://sundown.example.com", NEXTAUTH_URL: "https://auth.example.com" })).toBe(
      "https://auth.example.com",
    );
  });

  it("in production without either, stops with a message that says what to set and why", () => {
    const env = parseEnv({ NODE_ENV: "production", PORT: "8080" });
    expect(() => signInUrl(env)).toThrow(EnvError);
    expect(() => signInUrl(env)).toThrow(
      "Sundown: SUNDOWN_URL is required in production. Set SUNDOWN_URL to the address people open Sundown at, " +
        "e.g. SUNDOWN_URL=https://sundown.example.com (or http://localhost:3000 on this machine): sign-in builds its " +
        "links and redirects from it, never from the request's Host header. NEXTAUTH_URL, if set, is used for sign-in instead.",
    );
  });

  it("in development is this machine on PORT, never a request's host", () => {
    expect(signInUrl(parseEnv({ NODE_ENV: "development" }))).toBe("http://localhost:3000");
    expect(signInUrl(parseEnv({ NODE_ENV: "development", PORT: "4000" }))).toBe("http://localhost:4000");
  });
});

describe("SUNDOWN_MCP_ALLOWED_ORIGINS", () => {
  it("reads a comma-separated list of origins as a browser sends them, and none by default", () => {
    expect(parseEnv({ NODE_ENV: "test" }).SUNDOWN_MCP_ALLOWED_ORIGINS).toEqual([]);
    const parsed = parseEnv({
      NODE_ENV: "test",
      SUNDOWN_MCP_ALLOWED_ORIGINS: " https://Inspector.Example/ ,http://127.0.0.1:6274",
    });
    expect(parsed.SUNDOWN_MCP_ALLOWED_ORIGINS).toEqual(["https://inspector.example", "http://127.0.0.1:6274"]);
  });

  it.each([
    "*",
    "inspector.example",
    "https://inspector.example/mcp",
    "ftp://files.example",
    "https://user@inspector.example",
  ])("refuses %j with a message naming the entry", (value) => {
    expect(() => parseEnv({ NODE_ENV: "test", SUNDOWN_MCP_ALLOWED_ORIGINS: value })).toThrow(
      new RegExp(`SUNDOWN_MCP_ALLOWED_ORIGINS: "${value.replace(/[*./]/g, "\\$&")}" is not an origin`),
    );
  });
});
