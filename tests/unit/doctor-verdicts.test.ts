import { describe, expect, it } from "vitest";
import { measureSkew, skewFrom, skewVerdict, SKEW_FAIL_MS, SKEW_WARN_MS } from "@/lib/doctor/clock-skew";
import { unreachableVerdict } from "@/lib/doctor/database-checks";
import { describeStatements, describeStore } from "@/lib/doctor/describe";
import { nodeVersionVerdict, satisfiesRange, supportedNodeRange } from "@/lib/doctor/node-version";
import { runDoctor } from "@/lib/doctor/run";
import { publicUrlVerdict } from "@/lib/doctor/sign-in";
import { parseEnv } from "@/lib/env";

const envOf = (vars: Record<string, string>) => parseEnv({ NODE_ENV: "development", ...vars });

// The doctor's rules, without services: which Node passes, how a clock reading becomes a verdict, how a
// failed connection is explained, and how statements and stores are named.

const TODAY = new Date("2026-11-24T12:00:00Z");

describe("Node version", () => {
  const RANGE = "^20.19.0 || ^24.0.0";

  it("reads the supported versions from package.json's engines, which admit this Node", () => {
    expect(supportedNodeRange()).toMatch(/\d/);
    expect(satisfiesRange(process.version, supportedNodeRange())).toBe(true);
  });

  it.each([
    ["v20.19.0", "^20.19.0 || ^24.0.0", true],
    ["v20.18.3", "^20.19.0 || ^24.0.0", false],
    ["v22.12.0", "^20.19.0 || ^24.0.0", false],
    ["v24.0.0", "^20.19.0 || ^24.0.0", true],
    ["v25.1.0", "^20.19.0 || ^24.0.0", false],
    ["v22.12.0", ">=20.19", true],
    ["v20.18.0", ">=20.19", false],
    ["v23.1.0", ">=20.19 <23", false],
    ["v20.19.5", "~20.19.0", true],
  ])("%s against %s: %s", (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });

  it.each([
    ["v20.18.1", "fail", "Node 20.18.1 is not a version Sundown supports (^20.19.0 || ^24.0.0)"],
    ["v22.12.0", "fail", "Node 22.12.0 is not a version Sundown supports (^20.19.0 || ^24.0.0)"],
    ["v20.19.0", "warn", "Node 20.19.0: Node 20 reached end of life on 2026-04-30 and gets no security fixes"],
    ["v24.11.1", "pass", "Node 24.11.1, supported until 2028-04-30"],
  ])("%s: %s", (version, status, detail) => {
    expect(nodeVersionVerdict(version, RANGE, TODAY)).toMatchObject({ status, detail });
  });

  it("names Node 24 LTS as the fix, and warns on Node 20 only once its end of life has passed", () => {
    expect(nodeVersionVerdict("v20.20.2", RANGE, TODAY).fix).toBe(
      "Run production on Node 24 LTS (supported until 2028-04-30).",
    );
    expect(nodeVersionVerdict("v18.20.0", RANGE, TODAY).fix).toBe("Install Node 24 LTS.");
    expect(nodeVersionVerdict("v20.20.2", RANGE, new Date("2026-04-01T00:00:00Z"))).toMatchObject({
      status: "pass",
      detail: "Node 20.20.2, supported until 2026-04-30",
    });
  });
});

describe("clock skew", () => {
  const limits = { warnMs: SKEW_WARN_MS, failMs: SKEW_FAIL_MS };

  it("measures against the round trip's midpoint, to within half of it", () => {
    expect(skewFrom({ sentAt: 1_000, receivedAt: 1_100, remoteMs: 3_050 })).toEqual({
      skewMs: 2_000,
      uncertaintyMs: 50,
    });
  });

  it("reads a clock that agrees as agreeing", async () => {
    const skew = await measureSkew(async () => Date.now());
    expect(skewVerdict(skew, "PostgreSQL's", "why", limits)).toMatchObject({
      status: "pass",
      detail: expect.stringMatching(/^PostgreSQL's clock agrees with this machine's \(±\d+ ms\)$/),
    });
  });

  it.each([
    [400, "pass", "PostgreSQL's clock is 400 ms ahead of this machine's (±5 ms)"],
    [-1_500, "warn", "PostgreSQL's clock is 1.5 s behind this machine's (±5 ms): key expiry drifts"],
    [31_000, "fail", "PostgreSQL's clock is 31.0 s ahead of this machine's (±5 ms): key expiry drifts"],
  ])("a skew of %d ms: %s", (skewMs, status, detail) => {
    const verdict = skewVerdict({ skewMs, uncertaintyMs: 5 }, "PostgreSQL's", "key expiry drifts", limits);
    expect(verdict).toMatchObject({ status, detail });
    if (status !== "pass") expect(verdict.fix).toMatch(/NTP/);
  });

  it("without a failure limit, a large skew only warns", () => {
    expect(skewVerdict({ skewMs: 60_000, uncertaintyMs: 1 }, "Redis's", "x", { warnMs: SKEW_WARN_MS }).status).toBe(
      "warn",
    );
  });
});

describe("an unreachable PostgreSQL", () => {
  const env = envOf({
    DATABASE_URL: "postgresql://app:hunter22@db.example.com:5432/sundown",
    DATABASE_TIMEOUT_MS: "1500",
  });
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it.each([
    [
      withCode('database "sundown" does not exist', "3D000"),
      'PostgreSQL at postgresql://app:****@db.example.com:5432/sundown: database "sundown" does not exist',
      /^Run `npx sundown db migrate` with this DATABASE_URL: it creates the database/,
    ],
    [
      // PgBouncer passes the server's refusal on as a protocol error.
      withCode('database "sundown" does not exist', "08P01"),
      'PostgreSQL at postgresql://app:****@db.example.com:5432/sundown: database "sundown" does not exist',
      /^Run `npx sundown db migrate` with this DATABASE_URL: it creates the database/,
    ],
    [
      withCode("connect ECONNREFUSED 10.0.0.1:5432", "ECONNREFUSED"),
      "PostgreSQL at postgresql://app:****@db.example.com:5432/sundown: connection refused",
      /^Start PostgreSQL, or correct the host and port/,
    ],
    [
      new Error("timeout exceeded when trying to connect"),
      "PostgreSQL at postgresql://app:****@db.example.com:5432/sundown: no answer within 1500 ms (DATABASE_TIMEOUT_MS)",
      /^Check that PostgreSQL is up/,
    ],
    [
      withCode('password authentication failed for user "app"', "28P01"),
      'PostgreSQL at postgresql://app:****@db.example.com:5432/sundown refused the login: password authentication failed for user "app"',
      /^Check the user and password in DATABASE_URL/,
    ],
  ])("explains %s", (error, detail, fix) => {
    expect(unreachableVerdict(error, env)).toEqual({ status: "fail", detail, fix: expect.stringMatching(fix) });
  });
});

describe("naming", () => {
  const direct = { pooled: false, reason: "the server listens on the port dialled (5432)" };
  const pooled = { pooled: true, reason: "port 6432 is dialled but the server listens on 5432" };

  it("says how statements are sent, and why", () => {
    expect(describeStatements(true, direct, "auto")).toBe("statements sent named (prepared once per connection)");
    expect(describeStatements(false, pooled, "auto")).toBe(
      "statements sent unnamed, as a transaction pooler needs: handled",
    );
    expect(describeStatements(false, direct, "unnamed")).toBe(
      "statements sent unnamed (DATABASE_PREPARED_STATEMENTS=false)",
    );
    expect(describeStatements(true, pooled, "named")).toMatch(
      /^statements sent named \(DATABASE_PREPARED_STATEMENTS=true\)/,
    );
  });

  it("names the rate-limit store without its credentials", () => {
    expect(describeStore(envOf({}))).toBe("memory (each instance counts on its own)");
    expect(describeStore(envOf({ REDIS_URL: "redis://default:s3cret-pw@cache.internal:6380/0" }))).toBe(
      "Redis at redis://default:****@cache.internal:6380/0",
    );
    expect(
      describeStore(
        envOf({ UPSTASH_REDIS_REST_URL: "https://eu1-fine-fox.upstash.io", UPSTASH_REDIS_REST_TOKEN: "AXyZtoken" }),
      ),
    ).toBe("Upstash at https://eu1-fine-fox.upstash.io");
  });
});

describe("an invalid environment", () => {
  it("fails with parseEnv's problems, and leaves out the checks that need a valid environment", async () => {
    const report = await runDoctor({ NODE_ENV: "production", DATABASE_URL: "mysql://db", DATABASE_TIMEOUT_MS: "5" });
    expect(report.ok).toBe(false);
    expect(report.checks.map((c) => c.name)).toEqual(["environment", "node"]);
    expect(report.checks[0]).toEqual({
      name: "environment",
      status: "fail",
      detail:
        "DATABASE_URL: must be a postgresql:// connection string; DATABASE_TIMEOUT_MS: Too small: expected number to be >=100",
      fix: "Correct the variables named; the database, store and URL checks run once the environment is valid.",
    });
  });

  it("refuses a password in SUNDOWN_URL or NEXTAUTH_URL, and prints it nowhere", async () => {
    const report = await runDoctor({
      NODE_ENV: "production",
      SUNDOWN_URL: "https://ops:hunter2-public@sundown.example.com",
      NEXTAUTH_URL: "https://ops:hunter2-auth@sundown.example.com",
    });
    expect(report.checks[0]).toMatchObject({
      name: "environment",
      status: "fail",
      detail: expect.stringContaining("SUNDOWN_URL: must not contain a user name or password"),
    });
    expect(JSON.stringify(report)).not.toMatch(/hunter2/);
  });

  it("includes the rules across variables, such as the session secret production needs with PostgreSQL", async () => {
    const report = await runDoctor({ NODE_ENV: "production", DATABASE_URL: "postgresql://app:pw-1234@db/x" });
    expect(report.checks[0]).toMatchObject({
      status: "fail",
      detail:
        "NEXTAUTH_SECRET is required in production with DATABASE_URL. Generate one with `openssl rand -base64 32`.",
    });
  });
});

describe("the public URL", () => {
  it("is printed with any password masked, even in an environment that bypassed parseEnv", () => {
    const env = {
      ...envOf({ SUNDOWN_URL: "https://sundown.example.com" }),
      SUNDOWN_URL: "https://ops:hunter2-public@sundown.example.com",
      NEXTAUTH_URL: "https://ops:hunter2-auth@sundown.example.com",
    };
    expect(publicUrlVerdict(env)).toEqual({
      status: "pass",
      detail: "sign-in at https://ops:****@sundown.example.com/, links to https://ops:****@sundown.example.com/",
    });
  });
});
