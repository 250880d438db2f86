import { domainToASCII } from "node:url";
import ipaddr from "ipaddr.js";

// SUNDOWN_WEBHOOK_ALLOW_HOSTS, the operator's exceptions to the webhook address rules (lib/webhooks/endpoint-url.ts):
// for a receiver on this machine or the operator's network in development and tests. An exception is global (every
// organization's endpoints may use it), so each entry says exactly what it opens:
//
//   receiver.test        a host name, on the default ports only (80 for http, 443 for https)
//   receiver.test:8080   a host name on that port only
//   127.0.0.1 / [::1]    an IP address, however a URL writes it, on the default ports only
//   127.0.0.1:8080       an IP address on that port only ([::1]:8080 for IPv6)
//   127.0.0.1:*          a host name or IP address on every port, said so (receivers on random ports in tests)
//   10.0.0.0/8           a range (CIDR), on the default ports only
//
// Matched exactly: a name does not cover its subdomains, nor the addresses it resolves to. An entry that could never
// match (a trailing dot, a name with accents, a range with host bits set, a port alone) is refused at start, naming
// the entry, rather than accepted and silently useless. Parsed here, in the foundation, because lib/env.ts validates
// it at start and the webhook rules above read it.

/** One valid entry, in the form matching compares: lower case, an address in its canonical form. */
export type AllowEntry =
  | { kind: "name"; name: string; port: Port }
  | { kind: "address"; address: string; port: Port }
  | { kind: "range"; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** A port, every port ("*"), or null: the default ports. */
type Port = number | "*" | null;

/** What an entry without a port allows: the default ports of http and https. */
const DEFAULT_PORTS = [80, 443] as const;

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function isAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(":") && ipaddr.IPv6.isValid(text));
}

function canonical(address: string): string {
  return ipaddr.process(address).toString();
}

function parsePort(text: string): number | "*" | string {
  if (text === "*") return "*";
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65_535)
    return `"${text}" is not a port (1 to 65535)`;
  return Number(text);
}

/** Splits `host:port` and `[v6]:port`; a bare IPv6 address (several colons, no brackets) has no port. */
function splitPort(entry: string): { host: string; port: string | null } {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ?? null };
  const colons = entry.split(":").length - 1;
  if (colons !== 1) return { host: entry, port: null };
  const at = entry.indexOf(":");
  return { host: entry.slice(0, at), port: entry.slice(at + 1) };
}

/** The entry, or the sentence saying why it can never match. */
function parseAllowEntry(raw: string): AllowEntry | { error: string } {
  const entry = raw.trim().toLowerCase();
  const refuse = (why: string) => ({ error: `"${raw.trim()}" ${why}` });
  if (entry.includes("/")) {
    const [base = "", bits = ""] = entry.split("/");
    if (!isAddress(base) || !/^\d{1,3}$/.test(bits) || !ipaddr.isValidCIDR(entry))
      return refuse("is not a CIDR range such as 10.0.0.0/8 or fd00::/8");
    const range = ipaddr.parseCIDR(entry);
    const network = ipaddr.IPv4.isValidFourPartDecimal(base)
      ? ipaddr.IPv4.networkAddressFromCIDR(entry)
      : ipaddr.IPv6.networkAddressFromCIDR(entry);
    if (network.toString() !== range[0].toString())
      return refuse(`has host bits set: write the range as ${network.toString()}/${range[1]}`);
    return { kind: "range", range };
  }
  const { host, port: portText } = splitPort(entry);
  let port: Port = null;
  if (portText !== null) {
    const parsed = parsePort(portText);
    if (typeof parsed === "string" && parsed !== "*") return refuse(`has a bad port: ${parsed}`);
    port = parsed;
  }
  if (!host) return refuse("is a port alone: write the host too, as localhost:8080");
  if (isAddress(host)) return { kind: "address", address: canonical(host), port };
  if (host.endsWith(".")) return refuse(`ends with a dot: write ${host.replace(/\.+$/, "")}`);
  if ([...host].some((c) => c.charCodeAt(0) > 0x7f)) {
    const ascii = domainToASCII(host);
    return refuse(
      ascii
        ? `is not ASCII: URLs carry it as ${ascii}; write that`
        : "is not a host name: it has characters URLs cannot carry",
    );
  }
  const labels = host.split(".");
  if (!labels.every((label) => LABEL.test(label)))
    return refuse("is not a host name, an IP address, host:port or a CIDR range");
  // 8080, or 127.1: a URL reads an all-numeric host as an IPv4 address in another spelling, never as a name.
  if (/^\d+$/.test(labels.at(-1)!))
    return refuse(
      /^\d+$/.test(host)
        ? "is a port alone: write the host too, as localhost:8080"
        : "is not an IPv4 address written in full (four numbers, as 127.0.0.1)",
    );
  return { kind: "name", name: host, port };
}

/** The entries of a comma-separated list, or the sentences saying which are refused and why. */
export function parseAllowList(text: string | undefined): { entries: AllowEntry[]; errors: string[] } {
  const entries: AllowEntry[] = [];
  const errors: string[] = [];
  for (const raw of (text ?? "").split(",")) {
    if (!raw.trim()) continue;
    const parsed = parseAllowEntry(raw);
    if ("error" in parsed) errors.push(parsed.error);
    else entries.push(parsed);
  }
  return { entries, errors };
}

function portAllowed(entryPort: Port, port: number | null): boolean {
  if (entryPort === "*" || port === null) return true;
  return entryPort === null ? (DEFAULT_PORTS as readonly number[]).includes(port) : entryPort === port;
}

/**
 * Whether an entry covers this host (a URL's host name, or an IP address it names or resolves to) on this port
 * (the URL's, or its scheme's default); on any port, for null.
 */
export function allowListCovers(entries: readonly AllowEntry[], host: string, port: number | null): boolean {
  const lower = host.toLowerCase();
  const address = isAddress(lower) ? ipaddr.process(lower) : undefined;
  return entries.some((entry) => {
    switch (entry.kind) {
      case "name":
        return entry.name === lower && portAllowed(entry.port, port);
      case "address":
        return address !== undefined && entry.address === address.toString() && portAllowed(entry.port, port);
      case "range":
        return (
          address !== undefined &&
          address.kind() === entry.range[0].kind() &&
          address.match(entry.range) &&
          portAllowed(null, port)
        );
    }
  });
}

/** Ranges that reach this machine or a private network: what `sundown doctor` warns about in production. */
export function internalEntries(entries: readonly AllowEntry[]): AllowEntry[] {
  return entries.filter((entry) => {
    if (entry.kind === "name") return entry.name === "localhost" || entry.name.endsWith(".localhost");
    const address = entry.kind === "address" ? ipaddr.process(entry.address) : entry.range[0];
    return ["loopback", "private", "uniqueLocal", "linkLocal", "unspecified", "carrierGradeNat"].includes(
      address.range(),
    );
  });
}

/** An entry as the operator would write it. */
export function describeEntry(entry: AllowEntry): string {
  if (entry.kind === "range") return `${entry.range[0].toString()}/${entry.range[1]}`;
  const host = entry.kind === "name" ? entry.name : entry.address;
  const shown = host.includes(":") && entry.port !== null ? `[${host}]` : host;
  return entry.port === null ? shown : `${shown}:${entry.port}`;
}
