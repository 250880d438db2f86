import { describe, expect, it } from "vitest";
import { dialedPort, poolerFromServerPort, poolerFromUrl } from "@/lib/db/pooler";

// Whether DATABASE_URL goes through a transaction-mode pooler, from the URL alone and from the server's own port.

describe("a pooler named by the connection string", () => {
  it.each([
    ["postgresql://u:p@ep-cool-name-123456-pooler.eu-central-1.aws.neon.tech/db?sslmode=require", /Neon/],
    ["postgresql://u:p@aws-0-eu-west-1.pooler.supabase.com:6543/postgres", /supabase/],
    ["postgresql://u:p@db.example.com:6543/app", /6543/],
    ["postgresql://u:p@db.example.com:5432/app?pgbouncer=true", /pgbouncer=true/],
  ])("%s is pooled", (url, reason) => {
    expect(poolerFromUrl(url)).toEqual({ pooled: true, reason: expect.stringMatching(reason) });
  });

  it.each([
    "postgresql://u:p@db.example.com:5432/app",
    "postgresql://u:p@ep-cool-name-123456.eu-central-1.aws.neon.tech/db",
    "postgresql://u:p@db.example.com/app?pgbouncer=false",
    "not a url",
  ])("%s says nothing either way", (url) => {
    expect(poolerFromUrl(url)).toBeUndefined();
  });
});

describe("a pooler seen from the server's port", () => {
  it("a server listening on the port dialled is reached directly", () => {
    expect(poolerFromServerPort("postgresql://u@h:5433/db", 5433).pooled).toBe(false);
    expect(poolerFromServerPort("postgresql://u@h/db", 5432).pooled).toBe(false);
  });

  it("a server listening elsewhere has something in between", () => {
    expect(poolerFromServerPort("postgresql://u@h:6432/db", 5432)).toEqual({
      pooled: true,
      reason: "port 6432 is dialled but the server listens on 5432",
    });
  });

  it("an unspecified port is PostgreSQL's default", () => {
    expect(dialedPort("postgres://u@h/db")).toBe(5432);
    expect(dialedPort("postgres://u@h:6543/db")).toBe(6543);
  });
});
