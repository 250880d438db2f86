import { describe, expect, it } from "vitest";
import { forbiddenAddressReason, isIpLiteral } from "@/lib/webhooks/address-rules";

describe("webhook address rules", () => {
  it.each([
    ["8.8.8.8"],
    ["1.1.1.1"],
    ["93.184.215.14"],
    ["2606:4700:4700::1111"],
    ["2001:4860:4860::8888"],
    ["::ffff:8.8.8.8"],
    ["64:ff9b::808:808"], // NAT64 of 8.8.8.8
    ["2002:808:808::1"], // 6to4 of 8.8.8.8
  ])("delivers to the public address %s", (address) => {
    expect(forbiddenAddressReason(address)).toBeUndefined();
  });

  it.each([
    ["0.0.0.0", "the unspecified address"],
    ["0.1.2.3", "a reserved address"],
    ["10.0.0.5", "a private address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["100.127.255.254", "a carrier-grade NAT address"],
    ["100.100.100.200", "a cloud metadata address"],
    ["127.0.0.1", "a loopback address"],
    ["127.255.255.254", "a loopback address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["169.254.1.1", "a link-local address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.0.0.8", "a reserved address"],
    ["192.0.0.192", "a cloud metadata address"],
    ["192.0.2.10", "a documentation address"],
    ["192.168.1.1", "a private address"],
    ["198.18.0.1", "a benchmarking address"],
    ["198.19.255.255", "a benchmarking address"],
    ["198.51.100.7", "a documentation address"],
    ["203.0.113.9", "a documentation address"],
    ["224.0.0.1", "a multicast address"],
    ["239.255.255.250", "a multicast address"],
    ["240.0.0.1", "a reserved address"],
    ["255.255.255.255", "a broadcast address"],
    ["192.88.99.1", "a reserved address"], // a 6to4 relay: refused as ipaddr.js does not call it unicast
  ])("refuses the IPv4 address %s as %s", (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each([
    ["::", "the unspecified address"],
    ["::1", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["febf:ffff::1", "a link-local address"],
    ["fc00::1", "a private address"],
    ["fd12:3456:789a::1", "a private address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["fec0::1", "a private address"],
    ["ff02::1", "a multicast address"],
    ["2001:db8::1", "a documentation address"],
    ["3fff::1", "a documentation address"],
    ["100::1", "a reserved address"],
    ["2001::1", "a reserved address"], // Teredo
    ["2001:2::1", "a reserved address"], // benchmarking
    ["2001:20::1", "a reserved address"], // ORCHIDv2
    ["64:ff9b:1::1", "a private address"], // NAT64 for local use
    ["4000::1", "a reserved address"], // outside global unicast 2000::/3
    ["5f00::1", "a reserved address"], // segment routing
  ])("refuses the IPv6 address %s as %s", (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each([
    ["IPv4-mapped, dotted", "::ffff:127.0.0.1", "a loopback address"],
    ["IPv4-mapped, hex", "::ffff:7f00:1", "a loopback address"],
    ["IPv4-mapped metadata", "::ffff:a9fe:a9fe", "a cloud metadata address"],
    ["IPv4-compatible, dotted", "::127.0.0.1", "a loopback address"],
    ["IPv4-compatible, hex", "::7f00:1", "a loopback address"],
    ["IPv4-compatible, private", "::a00:1", "a private address"],
    ["IPv4-compatible, public (deprecated form)", "::808:808", "a reserved address"],
    ["IPv4-translated", "::ffff:0:a00:1", "a private address"],
    ["NAT64 of a private address", "64:ff9b::10.0.0.1", "a private address"],
    ["NAT64 of the metadata address", "64:ff9b::a9fe:a9fe", "a cloud metadata address"],
    ["6to4 of a loopback address", "2002:7f00:1::1", "a loopback address"],
    ["6to4 of a private address", "2002:c0a8:101::", "a private address"],
  ])("refuses an IPv6 form of an IPv4 address (%s: %s)", (_label, address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it("recognizes IP addresses as URLs and DNS answers write them, and nothing else", () => {
    expect(isIpLiteral("127.0.0.1")).toBe(true);
    expect(isIpLiteral("::1")).toBe(true);
    expect(isIpLiteral("2606:4700:4700::1111")).toBe(true);
    expect(isIpLiteral("example.com")).toBe(false);
    expect(isIpLiteral("127.1")).toBe(false);
    expect(isIpLiteral("0x7f.0.0.1")).toBe(false);
    expect(isIpLiteral("[::1]")).toBe(false);
  });

  it("refuses to judge something that is not an IP address", () => {
    expect(() => forbiddenAddressReason("example.com")).toThrow(TypeError);
  });
});
