import { describe, expect, it } from "vitest";
import { parseAllowList } from "@/lib/webhook-allow-list";
import { checkEndpointUrl, isAllowListed as isAllowListedUrl } from "@/lib/webhooks/endpoint-url";

const NONE: string[] = [];

/** Entries as SUNDOWN_WEBHOOK_ALLOW_HOSTS writes them. */
const entries = (allowHosts: readonly string[]) => parseAllowList(allowHosts.join(",")).entries;

/** Whether the list covers a host (a name or an address) on https's default port. */
const isAllowListed = (host: string, allowHosts: readonly string[]) =>
  isAllowListedUrl(new URL("https://placeholder.example/"), entries(allowHosts), host);

function errorOf(input: string, allowHosts: readonly string[] = NONE) {
  const checked = checkEndpointUrl(input, entries(allowHosts));
  return "error" in checked ? checked.error : undefined;
}

function hrefOf(input: string, allowHosts: readonly string[] = NONE) {
  const checked = checkEndpointUrl(input, entries(allowHosts));
  if ("error" in checked) throw new Error(`refused: ${checked.error}`);
  return checked.url.href;
}

describe("webhook endpoint URL", () => {
  it.each([
    ["https://example.com/webhooks"],
    ["https://hooks.example.com:8443/sundown?team=1"],
    ["https://8.8.8.8/hook"],
    ["https://[2606:4700:4700::1111]/hook"],
  ])("accepts the public https URL %s", (input) => {
    expect(hrefOf(input)).toBe(input);
  });

  it("says to enter a full URL when it is not one", () => {
    expect(errorOf("example.com/webhooks")).toBe("Enter a full URL, such as https://example.com/webhooks.");
    expect(errorOf("")).toBe("Enter a full URL, such as https://example.com/webhooks.");
  });

  it("refuses a URL longer than 2048 characters", () => {
    const base = "https://example.com/";
    expect(hrefOf(base + "a".repeat(2048 - base.length))).toHaveLength(2048);
    expect(errorOf(base + "a".repeat(2049 - base.length))).toBe("Use a URL of at most 2048 characters.");
  });

  it("refuses a URL whose encoded form grows past 2048 characters", () => {
    expect(errorOf("https://example.com/" + "é".repeat(1000))).toBe("Use a URL of at most 2048 characters.");
  });

  it("refuses plain http, naming the setting that allows it", () => {
    expect(errorOf("http://example.com/webhooks")).toBe(
      "Use an https:// URL: plain http is only allowed for hosts the operator lists in SUNDOWN_WEBHOOK_ALLOW_HOSTS.",
    );
  });

  it.each([["ftp://example.com/"], ["ws://example.com/"], ["file:///etc/passwd"], ["mailto:ops@example.com"]])(
    "refuses the non-web URL %s",
    (input) => {
      expect(errorOf(input)).toBe("Use an https:// URL.");
    },
  );

  it("accepts plain http for an allow-listed host", () => {
    expect(hrefOf("http://receiver.test/hook", ["receiver.test"])).toBe("http://receiver.test/hook");
  });

  it.each([["https://user:secret@example.com/"], ["https://user@example.com/"], ["https://:secret@example.com/"]])(
    "refuses credentials in the URL %s",
    (input) => {
      expect(errorOf(input)).toBe(
        "Remove the user name and password from the URL: every delivery is signed, so the receiver can check it without them.",
      );
    },
  );

  it.each([["https://example.com/hook#part"], ["https://example.com/hook#"]])("refuses the fragment in %s", (input) => {
    expect(errorOf(input)).toBe("Remove the #fragment from the URL: it is never sent to the receiver.");
  });

  it.each([
    ["https://127.0.0.1/", "127.0.0.1 is a loopback address"],
    ["https://10.1.2.3/", "10.1.2.3 is a private address"],
    ["https://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"],
    ["https://[::1]/", "::1 is a loopback address"],
    ["https://[fd00:ec2::254]/", "fd00:ec2::254 is a cloud metadata address"],
    ["https://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is a loopback address"],
    ["https://[::127.0.0.1]/", "::7f00:1 is a loopback address"],
    ["https://[64:ff9b::192.168.0.1]/", "64:ff9b::c0a8:1 is a private address"],
  ])("refuses the internal address in %s", (input, start) => {
    expect(errorOf(input)).toBe(
      `${start}: Sundown only delivers to public addresses (an operator can allow a host with SUNDOWN_WEBHOOK_ALLOW_HOSTS).`,
    );
  });

  it.each([
    ["decimal", "https://2130706433/"],
    ["hexadecimal", "https://0x7f.1/"],
    ["octal", "https://0177.0.0.1/"],
    ["short", "https://127.1/"],
  ])("refuses loopback written in %s form, as the URL parser reads it as 127.0.0.1", (_label, input) => {
    expect(new URL(input).hostname).toBe("127.0.0.1");
    expect(errorOf(input)).toMatch(/^127\.0\.0\.1 is a loopback address: /);
  });

  it.each([
    ["https://localhost/"],
    ["https://LOCALHOST./"],
    ["https://app.localhost/"],
    ["https://printer.local/"],
    ["https://metadata.google.internal/computeMetadata/v1/"],
    ["https://db.corp.internal/"],
    ["https://nas.home.arpa/"],
    ["https://box.localdomain/"],
  ])("refuses the internal host name in %s", (input) => {
    expect(errorOf(input)).toMatch(/ is an internal host name: Sundown only delivers to public addresses/);
  });

  it("refuses a single-label host, which the server's DNS search domains would complete", () => {
    expect(errorOf("https://redis/")).toBe(
      "redis is not a full domain name, such as example.com: Sundown only delivers to public addresses (an operator can allow a host with SUNDOWN_WEBHOOK_ALLOW_HOSTS).",
    );
  });

  it("accepts localhost and 127.0.0.1 over http on the ports the operator allows", () => {
    const allow = ["localhost:3001", "127.0.0.1:3001"];
    expect(hrefOf("http://localhost:3001/hook", allow)).toBe("http://localhost:3001/hook");
    expect(hrefOf("http://127.0.0.1:3001/hook", allow)).toBe("http://127.0.0.1:3001/hook");
    expect(errorOf("http://127.0.0.2:3001/hook", allow)).toMatch(/^Use an https:\/\/ URL/);
    expect(errorOf("https://127.0.0.2:3001/hook", allow)).toMatch(/^127\.0\.0\.2 is a loopback address/);
  });

  it("accepts an address inside an allow-listed CIDR range, and only inside it", () => {
    const allow = ["10.0.0.0/8", "fd00::/8"];
    expect(hrefOf("http://10.20.30.40/hook", allow)).toBe("http://10.20.30.40/hook");
    expect(hrefOf("https://[fd12::5]/hook", allow)).toBe("https://[fd12::5]/hook");
    expect(errorOf("https://192.168.0.1/hook", allow)).toMatch(/^192\.168\.0\.1 is a private address/);
  });

  it("still applies the other rules to an allow-listed host", () => {
    expect(errorOf("http://user:pw@localhost/", ["localhost"])).toMatch(/^Remove the user name and password/);
    expect(errorOf("http://localhost/#x", ["localhost"])).toMatch(/^Remove the #fragment/);
  });
});

describe("webhook allow-list", () => {
  it("matches host names exactly", () => {
    expect(isAllowListed("receiver.test", ["receiver.test"])).toBe(true);
    expect(isAllowListed("RECEIVER.test", ["receiver.test"])).toBe(true);
    expect(isAllowListed("evil.receiver.test", ["receiver.test"])).toBe(false);
    expect(isAllowListed("receiver.test.evil.com", ["receiver.test"])).toBe(false);
  });

  it("matches an IP address however it is written", () => {
    expect(isAllowListed("::ffff:7f00:1", ["127.0.0.1"])).toBe(true);
    expect(isAllowListed("0:0:0:0:0:0:0:1", ["::1"])).toBe(true);
  });

  it("matches addresses, not names, against CIDR ranges", () => {
    expect(isAllowListed("10.0.0.5", ["10.0.0.0/8"])).toBe(true);
    expect(isAllowListed("::ffff:10.0.0.5", ["10.0.0.0/8"])).toBe(true);
    expect(isAllowListed("11.0.0.5", ["10.0.0.0/8"])).toBe(false);
    expect(isAllowListed("fd00::1", ["10.0.0.0/8"])).toBe(false);
    expect(isAllowListed("10.example.com", ["10.0.0.0/8"])).toBe(false);
  });

  it("allows nothing when empty", () => {
    expect(isAllowListed("localhost", [])).toBe(false);
    expect(isAllowListed("127.0.0.1", [])).toBe(false);
  });
});
