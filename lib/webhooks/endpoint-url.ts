import { allowListCovers, type AllowEntry } from "@/lib/webhook-allow-list";
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

/** The port a URL connects to: its own, or its scheme's default. */
function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
}

/**
 * Whether the operator's SUNDOWN_WEBHOOK_ALLOW_HOSTS covers a URL's host, or an address it resolves to, on the
 * URL's port (lib/webhook-allow-list.ts: an entry without a port covers 80 and 443 only).
 */
export function isAllowListed(url: URL, allowHosts: readonly AllowEntry[], address = urlHost(url)): boolean {
  return allowListCovers(allowHosts, address, urlPort(url));
}

/** The URL to save, or the sentence saying which rule it breaks. */
export function checkEndpointUrl(input: string, allowHosts: readonly AllowEntry[]): { url: URL } | { error: string } {
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
  const allowed = isAllowListed(url, allowHosts);
  if (!allowed && allowListCovers(allowHosts, host, null))
    return error(
      `${host} is allowed by SUNDOWN_WEBHOOK_ALLOW_HOSTS on other ports only, not on ${urlPort(url)}: an entry without a port allows 80 and 443.`,
    );
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
