import { describe, expect, it } from "vitest";
import { baseUrl, baseUrlVary, parseHost } from "@/lib/http/base-url";
import { withEnv } from "../helpers/env";

const FORWARDED = { "X-Forwarded-Host": "sundown.acme.test", "X-Forwarded-Proto": "https" };
const NO_CONFIG = { SUNDOWN_URL: undefined, SUNDOWN_TRUST_PROXY: undefined, VERCEL: undefined };

describe("baseUrl", () => {
  it("uses the request's own origin by default, ignoring forwarded headers a client could forge", () =>
    withEnv(NO_CONFIG, async () => {
      expect(baseUrl(new Request("http://127.0.0.1:3000/api/v1", { headers: FORWARDED }))).toBe(
        "http://127.0.0.1:3000",
      );
    }));

  it("honours X-Forwarded-Host and -Proto behind a trusted proxy", () =>
    withEnv({ ...NO_CONFIG, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      expect(baseUrl(new Request("http://10.0.0.5:3000/api/v1", { headers: FORWARDED }))).toBe(
        "https://sundown.acme.test",
      );
    }));

  it("honours them on a serverless platform, whose edge sets them", () =>
    withEnv({ ...NO_CONFIG, VERCEL: "1", SUNDOWN_ALLOW_EMBEDDED: "1" }, async () => {
      expect(baseUrl(new Request("http://localhost:3000/api/v1", { headers: FORWARDED }))).toBe(
        "https://sundown.acme.test",
      );
    }));

  it("refuses a forwarded host that is not a host, and a proto other than http(s), even behind a trusted proxy", () =>
    withEnv({ ...NO_CONFIG, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const headers = { "X-Forwarded-Host": "evil.test/<script>", "X-Forwarded-Proto": "javascript" };
      expect(baseUrl(new Request("http://localhost:3000/api/v1", { headers }))).toBe("http://localhost:3000");
    }));

  it("prefers SUNDOWN_URL over everything, without a trailing slash", () =>
    withEnv({ ...NO_CONFIG, SUNDOWN_URL: "https://reports.example.com/", SUNDOWN_TRUST_PROXY: "1" }, async () => {
      expect(baseUrl(new Request("http://localhost:3000/api/v1", { headers: FORWARDED }))).toBe(
        "https://reports.example.com",
      );
    }));

  it("follows the Host the client addressed, not the localhost URL next start hands to routes", () =>
    withEnv(NO_CONFIG, async () => {
      const asNextSeesIt = (host: string) => new Request("http://localhost:3000/api/v1", { headers: { Host: host } });
      expect(baseUrl(asNextSeesIt("127.0.0.1:3000"))).toBe("http://127.0.0.1:3000");
      expect(baseUrl(asNextSeesIt("Reports.Acme.Test"))).toBe("http://reports.acme.test");
      expect(baseUrl(asNextSeesIt("[::1]:3000"))).toBe("http://[::1]:3000");
    }));

  it("never takes the scheme from request.url, which Next derives from a client's X-Forwarded-Proto", () =>
    withEnv(NO_CONFIG, async () => {
      const spoofed = new Request("https://localhost:3000/api/v1", {
        headers: { Host: "127.0.0.1:3000", ...FORWARDED },
      });
      expect(baseUrl(spoofed)).toBe("http://127.0.0.1:3000");
    }));

  it.each(["evil.test/<script>", "a b", "evil.test@x", "x:99999", "[zz::1]", "-bad.test", "a..b", "host:80:80", ""])(
    "answers 400 to the malformed Host %j instead of linking to it",
    (host) =>
      withEnv(NO_CONFIG, async () => {
        const request = new Request("http://localhost:3000/api/v1", { headers: { Host: host } });
        expect(() => baseUrl(request)).toThrow(
          expect.objectContaining({ name: "ApiError", status: 400, code: "invalid_parameter" }),
        );
      }),
  );

  it("accepts host names, IPv4 and bracketed IPv6 with ports, and nothing else", () => {
    expect(parseHost("sundown.acme.test:8443")).toBe("sundown.acme.test:8443");
    expect(parseHost("10.0.0.5")).toBe("10.0.0.5");
    expect(parseHost("[2001:db8::1]:443")).toBe("[2001:db8::1]:443");
    expect(parseHost("2001:db8::1")).toBeUndefined();
    expect(parseHost("a".repeat(64) + ".test")).toBeUndefined();
  });

  it("says which request headers the links vary on", async () => {
    await withEnv(NO_CONFIG, async () => expect(baseUrlVary()).toBe("Host"));
    await withEnv({ ...NO_CONFIG, SUNDOWN_TRUST_PROXY: "1" }, async () =>
      expect(baseUrlVary()).toBe("Host, X-Forwarded-Host, X-Forwarded-Proto"),
    );
    await withEnv({ ...NO_CONFIG, SUNDOWN_URL: "https://reports.example.com" }, async () =>
      expect(baseUrlVary()).toBeUndefined(),
    );
  });
});
