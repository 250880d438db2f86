import ipaddr from "ipaddr.js";
import { forbiddenAddressReason, isIpLiteral, ONLY_PUBLIC } from "./address-rules";

// The rules an endpoint URL must pass to be saved, before any DNS lookup (that is lib/webhooks/resolve-target.ts,
// which runs at saving and again at every attempt). Messages are sentences for the settings form and the CLI.

const MAX_LENGTH = 2048;

/**
 * Names that resolve to internal addresses by definition (RFC 6761 localhost, RFC 6762 mDNS .local, ICANN's
 * private-use .internal with metadata.google.internal, RFC 8375 home.arpa) or by common configuration.
 */
const INTERNAL_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa"];

/** The URL's host as DNS and the allow-list write it: IPv6 without its brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Whether the operator's SUNDOWN_WEBHOOK_ALLOW_HOSTS covers a host name or address: an entry equal to it, the
 * same IP address however written, or a CIDR range (10.0.0.0/8) holding it.
 */
export function isAllowListed(hostOrAddress: string, allowHosts: readonly string[]): boolean {
  const host = hostOrAddress.toLowerCase();
  const address = isIpLiteral(host) ? ipaddr.process(host) : undefined;
  return allowHosts.some((entry) => {
    if (entry === host) return true;
    if (!address) return false;
    if (ipaddr.isValidCIDR(entry)) {
      const [range, bits] = ipaddr.parseCIDR(entry);
      return range.kind() === address.kind() && address.match(range, bits);
    }
    return isIpLiteral(entry) && ipaddr.process(entry).toString() === address.toString();
  });
}

/** The URL to save, or the sentence saying which rule it breaks. */
export function checkEndpointUrl(input: string, allowHosts: readonly string[]): { url: URL } | { error: string } {
  const error = (message: string) => ({ error: message });
  if (input.length > MAX_LENGTH) return error(`Use a URL of at most ${MAX_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return error("Enter a full URL, such as https://example.com/webhooks.");
  }
  // Normalizing can lengthen a URL (punycode, percent-encoding): the stored form must fit too.
  if (url.href.length > MAX_LENGTH) return error(`Use a URL of at most ${MAX_LENGTH} characters.`);
  if (url.protocol !== "https:" && url.protocol !== "http:") return error("Use an https:// URL.");
  const host = urlHost(url);
  if (!host) return error("Enter a URL with a host name, such as https://example.com/webhooks.");
  const allowed = isAllowListed(host, allowHosts);
  if (url.protocol === "http:" && !allowed)
    return error(
      "Use an https:// URL: plain http is only allowed for hosts the operator lists in SUNDOWN_WEBHOOK_ALLOW_HOSTS.",
    );
  if (url.username || url.password)
    return error(
      "Remove the user name and password from the URL: every delivery is signed, so the receiver can check it without them.",
    );
  // `https://example.com/#` has an empty hash but still a fragment; '#' appears in a serialized URL only there.
  if (url.href.includes("#")) return error("Remove the #fragment from the URL: it is never sent to the receiver.");
  if (allowed) return { url };
  if (isIpLiteral(host)) {
    const reason = forbiddenAddressReason(host);
    return reason ? error(`${host} is ${reason}: ${ONLY_PUBLIC}`) : { url };
  }
  const name = host.replace(/\.$/, "");
  if (INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`)))
    return error(`${host} is an internal host name: ${ONLY_PUBLIC}`);
  // A single label ("redis", "intranet") is completed with the server's DNS search domains: an internal host.
  if (!name.includes(".")) return error(`${host} is not a full domain name, such as example.com: ${ONLY_PUBLIC}`);
  return { url };
}
