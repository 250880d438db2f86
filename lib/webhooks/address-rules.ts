import ipaddr from "ipaddr.js";

// Which IP addresses a webhook may be delivered to: public unicast ones only. Everything else reaches this
// machine, the operator's network or a cloud's metadata service, which a customer's endpoint URL must never
// make Sundown call (server-side request forgery). The ranges are listed here rather than taken from
// ipaddr.js's range names, so the rule can be read off the table; ipaddr's names are a second net below.

/** The end of every refusal of an address, so the settings form, the CLI and the delivery log agree. */
export const ONLY_PUBLIC =
  "Sundown only delivers to public addresses (an operator can allow a host with SUNDOWN_WEBHOOK_ALLOW_HOSTS).";

const METADATA = "a cloud metadata address";
const PRIVATE = "a private address";
const DOCUMENTATION = "a documentation address";
const RESERVED = "a reserved address";

type Rule<T> = { range: [T, number]; reason: string };

function v4Rules(rules: [cidr: string, reason: string][]): Rule<ipaddr.IPv4>[] {
  return rules.map(([cidr, reason]) => ({ range: ipaddr.IPv4.parseCIDR(cidr), reason }));
}

function v6Rules(rules: [cidr: string, reason: string][]): Rule<ipaddr.IPv6>[] {
  return rules.map(([cidr, reason]) => ({ range: ipaddr.IPv6.parseCIDR(cidr), reason }));
}

// First match wins: a single address comes before the range that holds it.
const IPV4: Rule<ipaddr.IPv4>[] = v4Rules([
  ["0.0.0.0/32", "the unspecified address"],
  ["0.0.0.0/8", RESERVED], // "this network": Linux connects 0.x.y.z to the local host
  ["10.0.0.0/8", PRIVATE],
  ["100.100.100.200/32", METADATA], // Alibaba Cloud
  ["100.64.0.0/10", "a carrier-grade NAT address"],
  ["127.0.0.0/8", "a loopback address"],
  ["169.254.169.254/32", METADATA], // AWS, Google Cloud, Azure and most others
  ["169.254.0.0/16", "a link-local address"],
  ["172.16.0.0/12", PRIVATE],
  ["192.0.0.192/32", METADATA], // Oracle Cloud
  ["192.0.0.0/24", RESERVED], // IETF protocol assignments
  ["192.0.2.0/24", DOCUMENTATION],
  ["192.168.0.0/16", PRIVATE],
  ["198.18.0.0/15", "a benchmarking address"],
  ["198.51.100.0/24", DOCUMENTATION],
  ["203.0.113.0/24", DOCUMENTATION],
  ["224.0.0.0/4", "a multicast address"],
  ["255.255.255.255/32", "a broadcast address"],
  ["240.0.0.0/4", RESERVED],
]);

const IPV6: Rule<ipaddr.IPv6>[] = v6Rules([
  ["::/128", "the unspecified address"],
  ["::1/128", "a loopback address"],
  ["fd00:ec2::254/128", METADATA], // AWS's IPv6 instance metadata
  ["fe80::/10", "a link-local address"],
  ["fec0::/10", PRIVATE], // deprecated site-local, still routed inside some networks
  ["fc00::/7", PRIVATE], // unique local
  ["ff00::/8", "a multicast address"],
  ["100::/64", RESERVED], // discard-only
  ["64:ff9b:1::/48", PRIVATE], // NAT64 for a network's own use
  ["2001::/32", RESERVED], // Teredo: a tunnel whose IPv4 end cannot be checked here
  ["2001:db8::/32", DOCUMENTATION],
  ["3fff::/20", DOCUMENTATION],
]);

/**
 * IPv6 ranges that carry an IPv4 address in their low bits (or bits 16–48 for 6to4), and whether a public IPv4
 * address inside is fine: NAT64 and 6to4 reach that IPv4 host, the two deprecated forms reach nothing public.
 */
const EMBEDDING: { range: [ipaddr.IPv6, number]; v4At: number; publicOk: boolean }[] = [
  { range: ipaddr.IPv6.parseCIDR("::/96"), v4At: 12, publicOk: false }, // IPv4-compatible (deprecated)
  { range: ipaddr.IPv6.parseCIDR("::ffff:0:0:0/96"), v4At: 12, publicOk: false }, // IPv4-translated (SIIT)
  { range: ipaddr.IPv6.parseCIDR("64:ff9b::/96"), v4At: 12, publicOk: true }, // NAT64
  { range: ipaddr.IPv6.parseCIDR("2002::/16"), v4At: 2, publicOk: true }, // 6to4
];

// Global unicast: every public IPv6 address today lies inside.
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

/** An IP address written the one way URLs and DNS answers write it (dotted quad, or IPv6 without brackets). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(host) || (host.includes(":") && ipaddr.IPv6.isValid(host));
}

/**
 * Why a webhook may not be delivered to this IP address ("a private address"), or undefined for a public
 * unicast address. IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  if (!isIpLiteral(address)) throw new TypeError(`Not an IP address: ${address}`);
  const ip = ipaddr.process(address);
  return ip.kind() === "ipv4" ? ipv4Reason(ip as ipaddr.IPv4) : ipv6Reason(ip as ipaddr.IPv6);
}

function ipv4Reason(ip: ipaddr.IPv4): string | undefined {
  const rule = IPV4.find(({ range }) => ip.match(range));
  if (rule) return rule.reason;
  // Ranges ipaddr.js knows and the table does not (6to4 relays, AS112, AMT): none is a webhook receiver.
  return ip.range() === "unicast" ? undefined : RESERVED;
}

function ipv6Reason(ip: ipaddr.IPv6): string | undefined {
  const rule = IPV6.find(({ range }) => ip.match(range));
  if (rule) return rule.reason;
  const embedding = EMBEDDING.find(({ range }) => ip.match(range));
  if (embedding) {
    const bytes = ip.toByteArray();
    const inner = ipv4Reason(new ipaddr.IPv4(bytes.slice(embedding.v4At, embedding.v4At + 4)));
    return inner ?? (embedding.publicOk ? undefined : RESERVED);
  }
  if (!ip.match(GLOBAL_UNICAST)) return RESERVED;
  // Inside 2000::/3, ipaddr.js names what is not for hosts (ORCHID, benchmarking, IETF assignments).
  return ip.range() === "unicast" ? undefined : RESERVED;
}
