import { lookup as dnsLookup } from "node:dns/promises";
import { forbiddenAddressReason, isIpLiteral, ONLY_PUBLIC } from "./address-rules";
import type { AllowEntry } from "@/lib/webhook-allow-list";
import { isAllowListed, urlHost } from "./endpoint-url";

// The address a delivery connects to, checked: the caller pins the connection to it (lib/webhooks/send.ts), so a
// second DNS answer cannot move the request to an internal host after this check passed (DNS rebinding).

/** A target refused, or a host that does not resolve: the message is for people (settings form, CLI, attempt log). */
export class WebhookTargetError extends Error {
  override name = "WebhookTargetError";
}

type Lookup = (
  hostname: string,
  options: { all: true; verbatim: true },
) => Promise<{ address: string; family: number }[]>;

export async function resolveWebhookTarget(
  url: URL,
  allowHosts: readonly AllowEntry[],
  lookup: Lookup = dnsLookup,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = urlHost(url);
  const hostAllowed = isAllowListed(url, allowHosts);
  if (isIpLiteral(host)) {
    const reason = hostAllowed ? undefined : forbiddenAddressReason(host);
    if (reason) throw new WebhookTargetError(`${host} is ${reason}: ${ONLY_PUBLIC}`);
    return { address: host, family: host.includes(":") ? 6 : 4 };
  }
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
    throw new WebhookTargetError(`could not resolve ${host} (${code})`, { cause: error });
  }
  if (answers.length === 0) throw new WebhookTargetError(`could not resolve ${host} (no addresses)`);
  // Every address, not only the one used: the system resolver may pick another order for another caller, and a
  // name with one public and one private record is a way in.
  if (!hostAllowed) {
    for (const { address } of answers) {
      const reason = isAllowListed(url, allowHosts, address) ? undefined : forbiddenAddressReason(address);
      if (reason) throw new WebhookTargetError(`${host} resolves to ${reason}: ${ONLY_PUBLIC}`);
    }
  }
  const [first] = answers;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
