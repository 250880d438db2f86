import { describe, expect, it } from "vitest";
import { parseCommandLine } from "@/cli/args";
import { doctorReportJson, formatDoctorReport } from "@/cli/doctor-format";
import { formatMigration } from "@/cli/format";
import { createDatabaseStatement, isMissingDatabase } from "@/lib/db/create-database";
import type { DoctorReport } from "@/lib/doctor/check";
import { maskUrl, redact, secretsOf } from "@/lib/doctor/mask";

// What the operator reads from `sundown doctor` and `sundown db migrate`, and what never reaches it.

const REPORT: DoctorReport = {
  ok: false,
  checks: [
    { name: "environment", status: "pass", detail: "valid, judged for production (NODE_ENV=production)" },
    {
      name: "node",
      status: "warn",
      detail: "Node 20.20.2: Node 20 reached end of life",
      fix: "Run production on Node 24 LTS.",
    },
    {
      name: "migrations",
      status: "fail",
      detail: "1 of 5 not applied: 20261126000000_key_usage",
      fix: "Run `npx sundown db migrate` with this DATABASE_URL.",
    },
  ],
};

describe("sundown doctor's output", () => {
  it("parses `doctor` and `doctor --json`", () => {
    expect(parseCommandLine(["doctor"])).toEqual({ kind: "doctor", json: false });
    expect(parseCommandLine(["doctor", "--json"])).toEqual({ kind: "doctor", json: true });
    expect(() => parseCommandLine(["doctor", "--fix"])).toThrow(/sundown doctor: unknown option '--fix'/);
  });

  it("prints one line per check with its mark, the fix indented beneath, and a summary", () => {
    expect(formatDoctorReport(REPORT)).toBe(
      [
        "✓ environment  valid, judged for production (NODE_ENV=production)",
        "! node         Node 20.20.2: Node 20 reached end of life",
        "               fix: Run production on Node 24 LTS.",
        "✗ migrations   1 of 5 not applied: 20261126000000_key_usage",
        "               fix: Run `npx sundown db migrate` with this DATABASE_URL.",
        "",
        "1 check failed, 1 warning.",
      ].join("\n"),
    );
    expect(formatDoctorReport({ ok: true, checks: REPORT.checks.slice(0, 1) })).toMatch(/\n\nAll checks passed\.$/);
  });

  it("--json prints exactly {ok, checks: [{name, status, detail, fix?}]}", () => {
    const parsed = JSON.parse(doctorReportJson(REPORT));
    expect(Object.keys(parsed)).toEqual(["ok", "checks"]);
    expect(parsed.checks.map((c: object) => Object.keys(c))).toEqual([
      ["name", "status", "detail"],
      ["name", "status", "detail", "fix"],
      ["name", "status", "detail", "fix"],
    ]);
    expect(parsed).toEqual(REPORT);
  });
});

describe("secrets", () => {
  it("masks a URL's password and credentials in its query, keeping the rest", () => {
    expect(maskUrl("postgresql://app:hunter22@db.example.com:6543/sundown?sslmode=require")).toBe(
      "postgresql://app:****@db.example.com:6543/sundown?sslmode=require",
    );
    expect(maskUrl("postgresql://db.example.com/sundown?user=app&password=hunter22")).toBe(
      "postgresql://db.example.com/sundown?user=app&password=****",
    );
    expect(maskUrl("redis://:p%40ss@cache:6379")).toBe("redis://:****@cache:6379");
    expect(maskUrl("not a url hunter22")).toBe("(not a URL)");
    expect(maskUrl("https://ops:hunter22@sundown.example.com/")).toBe("https://ops:****@sundown.example.com/");
    // Nothing to mask: printed exactly as written.
    expect(maskUrl("https://sundown.example.com")).toBe("https://sundown.example.com");
  });

  it("blanks every secret of the environment out of any text, encoded passwords included", () => {
    const secrets = secretsOf({
      DATABASE_URL: "postgresql://app:p%40ss-word@db/x",
      REDIS_URL: "redis://:redis-pw@cache",
      NEXTAUTH_SECRET: "session-secret-1234",
      UPSTASH_REDIS_REST_TOKEN: "AXyZ-token",
      GITHUB_SECRET: "gh-secret",
      CRON_SECRET: "cron-secret-0123456789",
      SUNDOWN_URL: "https://ops:public-pw@sundown.example.com",
      NEXTAUTH_URL: "https://ops:auth-pw@sundown.example.com",
    });
    const text =
      "p@ss-word p%40ss-word redis-pw session-secret-1234 AXyZ-token gh-secret cron-secret-0123456789 public-pw auth-pw db cache";
    expect(redact(text, secrets)).toBe("**** **** **** **** **** **** **** **** **** db cache");
  });
});

describe("sundown db migrate's output", () => {
  it("quotes the database and owner it tells the operator to create, as PostgreSQL reads them back", () => {
    expect(createDatabaseStatement('Sundown "prod"', "app-user")).toBe(
      'CREATE DATABASE "Sundown ""prod""" OWNER "app-user";',
    );
  });

  it("knows a missing database from PostgreSQL (3D000) and through PgBouncer (08P01 with the server's message)", () => {
    expect(isMissingDatabase({ code: "3D000", message: 'database "x" does not exist' })).toBe(true);
    expect(isMissingDatabase({ code: "08P01", message: 'database "sundown" does not exist' })).toBe(true);
    expect(isMissingDatabase({ code: "08P01", message: "unsupported startup parameter: statement_timeout" })).toBe(
      false,
    );
    expect(isMissingDatabase({ code: "28P01", message: 'database "x" does not exist' })).toBe(false);
    expect(isMissingDatabase(null)).toBe(false);
  });

  it("says when it created the database", () => {
    expect(
      formatMigration({
        database: "postgres",
        migrations: 2,
        pending: [],
        applied: ["a", "b"],
        createdDatabase: "Sundown-Prod",
      }),
    ).toBe('Created database "Sundown-Prod".\nApplied 2 migrations to PostgreSQL:\n  a\n  b');
    expect(formatMigration({ database: "postgres", migrations: 2, pending: [], applied: [] })).toBe(
      "PostgreSQL is up to date (2 migrations applied).",
    );
  });
});
