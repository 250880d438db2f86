import { describe, expect, it } from "vitest";
import { parseAllowList } from "@/lib/webhook-allow-list";
import { resolveWebhookTarget as resolveWith, WebhookTargetError } from "@/lib/webhooks/resolve-target";

/** The allow-list as SUNDOWN_WEBHOOK_ALLOW_HOSTS writes it. */
const resolveWebhookTarget = (url: URL, allowHosts: string[], lookup?: Parameters<typeof resolveWith>[2]) =>
  resolveWith(url, parseAllowList(allowHosts.join(",")).entries, lookup);

const ONLY_PUBLIC =
  "Sundown only delivers to public addresses (an operator can allow a host with SUNDOWN_WEBHOOK_ALLOW_HOSTS).";

/** A resolver that answers from a table, as the machine has no DNS beyond localhost. */
function fakeDns(records: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { lookup, asked };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookTargetError);
  return (error as WebhookTargetError).message;
}

describe("webhook target resolution", () => {
  it("connects to the first address of a name that resolves only to public addresses", async () => {
    const { lookup } = fakeDns({ "webhooks.example.com": ["2606:4700:4700::1111", "1.1.1.1"] });
    await expect(resolveWebhookTarget(new URL("https://webhooks.example.com/in"), [], lookup)).resolves.toEqual({
      address: "2606:4700:4700::1111",
      family: 6,
    });
  });

  it("refuses a name that resolves to a private address, saying what kind, never the address", async () => {
    const { lookup } = fakeDns({ "webhooks.example.com": ["10.0.0.5"] });
    expect(await refusal(resolveWebhookTarget(new URL("https://webhooks.example.com/in"), [], lookup))).toBe(
      `webhooks.example.com resolves to a private address: ${ONLY_PUBLIC}`,
    );
  });

  it("refuses a name with one public and one private record, whichever comes first", async () => {
    for (const addresses of [
      ["8.8.8.8", "127.0.0.1"],
      ["127.0.0.1", "8.8.8.8"],
    ]) {
      const { lookup } = fakeDns({ "mixed.example.com": addresses });
      expect(await refusal(resolveWebhookTarget(new URL("https://mixed.example.com/"), [], lookup))).toBe(
        `mixed.example.com resolves to a loopback address: ${ONLY_PUBLIC}`,
      );
    }
  });

  it("refuses a name whose AAAA record is the IPv6 form of the metadata address", async () => {
    const { lookup } = fakeDns({ "sneaky.example.com": ["93.184.215.14", "::ffff:169.254.169.254"] });
    expect(await refusal(resolveWebhookTarget(new URL("https://sneaky.example.com/"), [], lookup))).toBe(
      `sneaky.example.com resolves to a cloud metadata address: ${ONLY_PUBLIC}`,
    );
  });

  it("says when a name does not resolve", async () => {
    const { lookup } = fakeDns({});
    expect(await refusal(resolveWebhookTarget(new URL("https://nowhere.example.com/"), [], lookup))).toBe(
      "could not resolve nowhere.example.com (ENOTFOUND)",
    );
  });

  it("delivers to an allow-listed host even though it resolves to loopback", async () => {
    const { lookup } = fakeDns({ "receiver.test": ["127.0.0.1"] });
    await expect(resolveWebhookTarget(new URL("http://receiver.test/"), ["receiver.test"], lookup)).resolves.toEqual({
      address: "127.0.0.1",
      family: 4,
    });
  });

  it("delivers to a name whose private addresses are all in an allow-listed range", async () => {
    const { lookup } = fakeDns({ "hooks.corp.example": ["10.1.0.7", "8.8.8.8"], "other.corp.example": ["10.9.0.1"] });
    const allow = ["10.1.0.0/16"];
    await expect(resolveWebhookTarget(new URL("https://hooks.corp.example/"), allow, lookup)).resolves.toEqual({
      address: "10.1.0.7",
      family: 4,
    });
    expect(await refusal(resolveWebhookTarget(new URL("https://other.corp.example/"), allow, lookup))).toMatch(
      /^other\.corp\.example resolves to a private address: /,
    );
  });

  it("checks an IP address in the URL without asking DNS", async () => {
    const { lookup, asked } = fakeDns({});
    await expect(resolveWebhookTarget(new URL("https://8.8.8.8/"), [], lookup)).resolves.toEqual({
      address: "8.8.8.8",
      family: 4,
    });
    await expect(resolveWebhookTarget(new URL("https://[2606:4700:4700::1111]/"), [], lookup)).resolves.toEqual({
      address: "2606:4700:4700::1111",
      family: 6,
    });
    expect(await refusal(resolveWebhookTarget(new URL("https://[::1]/"), [], lookup))).toBe(
      `::1 is a loopback address: ${ONLY_PUBLIC}`,
    );
    expect(await refusal(resolveWebhookTarget(new URL("https://2130706433/"), [], lookup))).toBe(
      `127.0.0.1 is a loopback address: ${ONLY_PUBLIC}`,
    );
    await expect(resolveWebhookTarget(new URL("http://127.0.0.1:3001/"), ["127.0.0.1:3001"], lookup)).resolves.toEqual({
      address: "127.0.0.1",
      family: 4,
    });
    expect(asked).toEqual([]);
  });

  it("refuses the real localhost, resolved by this machine, unless it is allow-listed", async () => {
    expect(await refusal(resolveWebhookTarget(new URL("http://localhost:3001/"), []))).toMatch(
      /^localhost resolves to a loopback address: /,
    );
    const target = await resolveWebhookTarget(new URL("http://localhost:3001/"), ["localhost:3001"]);
    expect(["127.0.0.1", "::1"]).toContain(target.address);
    expect(target.family).toBe(target.address === "::1" ? 6 : 4);
  });
});
