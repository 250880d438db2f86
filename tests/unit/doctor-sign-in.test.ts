import { describe, expect, it } from "vitest";
import { publicUrlVerdict, sessionSecretVerdict } from "@/lib/doctor/sign-in";
import { parseEnv } from "@/lib/env";

const envOf = (vars: Record<string, string>) => parseEnv({ NODE_ENV: "development", ...vars });

// The public URL and the session secret as `npm start` will use them.

const production = (vars: Record<string, string>) => envOf({ NODE_ENV: "production", ...vars });

describe("public URL", () => {
  it("fails in production without SUNDOWN_URL or NEXTAUTH_URL, with the server's own message as the fix", () => {
    const verdict = publicUrlVerdict(production({}));
    expect(verdict).toMatchObject({ status: "fail", detail: "neither SUNDOWN_URL nor NEXTAUTH_URL is set" });
    expect(verdict.fix).toMatch(/^SUNDOWN_URL is required in production\. Set SUNDOWN_URL to the address/);
  });

  it("fails when NEXTAUTH_URL and SUNDOWN_URL name different origins", () => {
    expect(
      publicUrlVerdict(
        production({ SUNDOWN_URL: "https://sundown.example.com", NEXTAUTH_URL: "https://auth.example.com" }),
      ),
    ).toEqual({
      status: "fail",
      detail:
        "NEXTAUTH_URL (https://auth.example.com) and SUNDOWN_URL (https://sundown.example.com) are different origins: " +
        "sign-in would send people to one while the API's links point to the other",
      fix: "Set NEXTAUTH_URL to https://sundown.example.com, or unset it: sign-in then uses SUNDOWN_URL's origin.",
    });
  });

  it("passes the same origin with a path, and either URL alone", () => {
    expect(
      publicUrlVerdict(
        production({
          SUNDOWN_URL: "https://sundown.example.com/",
          NEXTAUTH_URL: "https://sundown.example.com/api/auth",
        }),
      ),
    ).toEqual({
      status: "pass",
      detail: "sign-in at https://sundown.example.com/api/auth, links to https://sundown.example.com/",
    });
    expect(publicUrlVerdict(production({ NEXTAUTH_URL: "https://sundown.example.com" }))).toEqual({
      status: "pass",
      detail: "sign-in at https://sundown.example.com, links to the Host each request names (SUNDOWN_URL unset)",
    });
  });

  it("warns in production on plain http beyond this machine, not on loopback or in development", () => {
    expect(publicUrlVerdict(production({ SUNDOWN_URL: "http://sundown.example.com" }))).toMatchObject({
      status: "warn",
      fix: "Serve Sundown over https (a TLS-terminating proxy will do) and set SUNDOWN_URL to its https:// address.",
    });
    for (const url of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000"]) {
      expect(publicUrlVerdict(production({ SUNDOWN_URL: url })).status).toBe("pass");
    }
    expect(publicUrlVerdict(envOf({ SUNDOWN_URL: "http://sundown.example.com" })).status).toBe("pass");
  });
});

describe("session secret", () => {
  it("never shows the secret", () => {
    const verdict = sessionSecretVerdict(
      production({ NEXTAUTH_SECRET: "a-very-secret-session-key", SUNDOWN_URL: "https://x.example" }),
    );
    expect(verdict).toEqual({ status: "pass", detail: "NEXTAUTH_SECRET is set" });
  });

  it("on the embedded database, says where the generated one is kept", () => {
    expect(sessionSecretVerdict(envOf({ SUNDOWN_DATA_DIR: "/srv/sundown" }))).toEqual({
      status: "pass",
      detail: "generated on first start and kept in /srv/sundown/auth-secret (NEXTAUTH_SECRET unset)",
    });
  });

  it("warns in production when the secret lives in memory only", () => {
    expect(sessionSecretVerdict(production({ SUNDOWN_DATA_DIR: "memory://x" }))).toMatchObject({
      status: "warn",
      fix: "Set NEXTAUTH_SECRET (e.g. `openssl rand -base64 32`) so sessions survive a restart.",
    });
  });
});
