import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { webhookAllowListVerdict } from "@/lib/doctor/webhook-allow-list";
import { checkEndpointUrl } from "@/lib/webhooks/endpoint-url";

// SUNDOWN_WEBHOOK_ALLOW_HOSTS says exactly what it allows (issue 34: with the documented `localhost,127.0.0.1`, every
// organization could POST to every service on the machine; entries that could never match were accepted silently).

const allow = (value: string) =>
  parseEnv({ NODE_ENV: "test", SUNDOWN_WEBHOOK_ALLOW_HOSTS: value }).SUNDOWN_WEBHOOK_ALLOW_HOSTS;

function refusedAtStart(value: string): string {
  try {
    allow(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted: ${value}`);
}

const accepts = (url: string, value: string) => "url" in checkEndpointUrl(url, allow(value));

describe("an entry without a port", () => {
  it("allows the default ports only, never another service on the same host", () => {
    for (const value of ["localhost", "127.0.0.1"]) {
      const host = value;
      expect(accepts(`http://${host}/hook`, value)).toBe(true);
      expect(accepts(`https://${host}/hook`, value)).toBe(true);
      expect(accepts(`http://${host}:443/hook`, value)).toBe(true);
      for (const port of [22, 5432, 6379, 8080, 9200]) expect(accepts(`http://${host}:${port}/`, value)).toBe(false);
    }
  });

  it("a range likewise", () => {
    expect(accepts("http://10.1.2.3/hook", "10.0.0.0/8")).toBe(true);
    expect(accepts("http://10.1.2.3:6379/", "10.0.0.0/8")).toBe(false);
  });
});

describe("an entry with a port", () => {
  it("allows exactly that port", () => {
    expect(accepts("http://localhost:8080/hook", "localhost:8080")).toBe(true);
    expect(accepts("http://localhost:8081/hook", "localhost:8080")).toBe(false);
    expect(accepts("http://localhost/hook", "localhost:8080")).toBe(false);
    expect(accepts("http://[::1]:8080/hook", "[::1]:8080")).toBe(true);
    expect(accepts("http://[::1]:8081/hook", "[::1]:8080")).toBe(false);
    expect(accepts("http://127.0.0.1:8080/", "127.0.0.1:8080")).toBe(true);
  });

  it("`*` allows every port, said in so many words", () => {
    expect(accepts("http://127.0.0.1:54321/hook", "127.0.0.1:*")).toBe(true);
    expect(accepts("http://127.0.0.2:54321/hook", "127.0.0.1:*")).toBe(false);
  });
});

describe("entries that could never match are refused at start, by name", () => {
  it.each([
    ["receiver.test.", `"receiver.test." ends with a dot: write receiver.test`],
    ["münchen.example", `"münchen.example" is not ASCII: URLs carry it as xn--mnchen-3ya.example; write that`],
    ["10.0.0.1/8", `"10.0.0.1/8" has host bits set: write the range as 10.0.0.0/8`],
    ["10.0.0.0/33", `"10.0.0.0/33" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`],
    ["10/8", `"10/8" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`],
    [":8080", `":8080" is a port alone: write the host too, as localhost:8080`],
    ["8080", `"8080" is a port alone: write the host too, as localhost:8080`],
    ["localhost:0", `"localhost:0" has a bad port: "0" is not a port (1 to 65535)`],
    ["localhost:99999", `"localhost:99999" has a bad port: "99999" is not a port (1 to 65535)`],
    ["127.1", `"127.1" is not an IPv4 address written in full (four numbers, as 127.0.0.1)`],
    ["http://localhost", `"http://localhost" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`],
    ["local host", `"local host" is not a host name, an IP address, host:port or a CIDR range`],
    ["*.example.com", `"*.example.com" is not a host name, an IP address, host:port or a CIDR range`],
  ])("%s", (value, message) => {
    expect(refusedAtStart(`localhost,${value}`)).toContain(`SUNDOWN_WEBHOOK_ALLOW_HOSTS: ${message}`);
  });

  it("accepts the forms it documents", () => {
    expect(allow("localhost, 127.0.0.1:8080,[::1]:9000, ::1, 10.0.0.0/8, fd00::/8, Receiver.Test:*,")).toHaveLength(7);
  });
});

describe("sundown doctor", () => {
  const verdict = (vars: Record<string, string>) =>
    webhookAllowListVerdict(parseEnv({ NODE_ENV: "development", ...vars }));

  it("warns when the allow-list holds loopback or private addresses in production, naming them", () => {
    const found = verdict({
      NODE_ENV: "production",
      SUNDOWN_WEBHOOK_ALLOW_HOSTS: "hooks.example.com,localhost:8080,10.0.0.0/8",
    });
    expect(found?.status).toBe("warn");
    expect(found?.detail).toBe(
      "SUNDOWN_WEBHOOK_ALLOW_HOSTS lets every organization's webhooks reach localhost:8080, 10.0.0.0/8: loopback or private addresses, in production",
    );
    expect(found?.fix).toMatch(/^Unset SUNDOWN_WEBHOOK_ALLOW_HOSTS in production \(it is for development and tests\)/);
    expect(verdict({ NODE_ENV: "production", SUNDOWN_WEBHOOK_ALLOW_HOSTS: "[::1]:9000" })?.status).toBe("warn");
  });

  it("passes in development, or with public hosts only, and says nothing when the list is empty", () => {
    expect(verdict({ NODE_ENV: "development", SUNDOWN_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:*" })).toEqual({
      status: "pass",
      detail: "webhook endpoints may also use 127.0.0.1:*",
    });
    expect(verdict({ NODE_ENV: "production", SUNDOWN_WEBHOOK_ALLOW_HOSTS: "hooks.example.com:8443" })?.status).toBe(
      "pass",
    );
    expect(verdict({ NODE_ENV: "production" })).toBeNull();
  });
});

describe("a listed host on a port the list does not allow", () => {
  it("is refused, saying so rather than asking for https", () => {
    const checked = checkEndpointUrl("http://127.0.0.1:6379/", allow("localhost,127.0.0.1"));
    expect(checked).toEqual({
      error:
        "127.0.0.1 is allowed by SUNDOWN_WEBHOOK_ALLOW_HOSTS on other ports only, not on 6379: an entry without a port allows 80 and 443.",
    });
  });
});
