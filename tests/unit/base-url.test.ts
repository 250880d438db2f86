import { describe, expect, it } from "vitest";
import { baseUrl } from "@/lib/http/base-url";
import { withEnv } from "../helpers/env";

const FORWARDED = { "X-Forwarded-Host": "sundown.acme.test", "X-Forwarded-Proto": "https" };
const NO_CONFIG = { SUNDOWN_URL: undefined, SUNDOWN_TRUST_PROXY: undefined, VERCEL: undefined };

describe("baseUrl", () => {
  it("uses the request's own origin by default, ignoring forwarded headers a client could forge", () =>
    withEnv(NO_CONFIG, async () => {
      expect(baseUrl(new Request("http://127.0.0.1:3000/api/v1", { headers: FORWARDED }))).toBe("http://127.0.0.1:3000");
    }));

  it("honours X-Forwarded-Host and -Proto behind a trusted proxy", () =>
    withEnv({ ...NO_CONFIG, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      expect(baseUrl(new Request("http://10.0.0.5:3000/api/v1", { headers: FORWARDED }))).toBe("https://sundown.acme.test");
    }));

  it("honours them on a serverless platform, whose edge sets them", () =>
    withEnv({ ...NO_CONFIG, VERCEL: "1", SUNDOWN_ALLOW_EMBEDDED: "1" }, async () => {
      expect(baseUrl(new Request("http://localhost:3000/api/v1", { headers: FORWARDED }))).toBe("https://sundown.acme.test");
    }));

  it("refuses a forwarded host that is not a host, and a proto other than http(s), even behind a trusted proxy", () =>
    withEnv({ ...NO_CONFIG, SUNDOWN_TRUST_PROXY: "1" }, async () => {
      const headers = { "X-Forwarded-Host": "evil.test/<script>", "X-Forwarded-Proto": "javascript" };
      expect(baseUrl(new Request("http://localhost:3000/api/v1", { headers }))).toBe("http://localhost:3000");
    }));

  it("prefers SUNDOWN_URL over everything, without a trailing slash", () =>
    withEnv({ ...NO_CONFIG, SUNDOWN_URL: "https://reports.example.com/", SUNDOWN_TRUST_PROXY: "1" }, async () => {
      expect(baseUrl(new Request("http://localhost:3000/api/v1", { headers: FORWARDED }))).toBe("https://reports.example.com");
    }));
});
