import type http from "node:http";
import { isIP } from "node:net";
import { getEnv } from "@/lib/env";

// Who a client is, for the budgets counted per address: the API's failed-key budget and sign-in's
// failure budgets. It lives here, not in lib/http, because sign-in (lib/auth) reads it too and reading
// a standard Headers object needs nothing of the HTTP layer.
//
// Route handlers never see the socket, and Next only fills X-Forwarded-For when the client did not
// send one. So the server stamps each request's peer address into a header of its own, overwriting
// whatever a client sent under that name (lib/http/node-request-guard.ts calls this on every request);
// X-Forwarded-For is read only behind a trusted proxy.

export const PEER_ADDRESS_HEADER = "x-sundown-peer-address";

/** Records the request's socket address in PEER_ADDRESS_HEADER, replacing any client-sent value. */
export function stampPeerAddress(request: http.IncomingMessage): void {
  request.headers[PEER_ADDRESS_HEADER] = request.socket?.remoteAddress ?? "";
}

/**
 * The client's address for per-address limits, or undefined when it cannot be known (then nothing
 * is limited per address rather than every client sharing one budget). IPv6 clients are grouped by
 * /64, the block one subscriber usually holds.
 */
export function clientAddress(headers: Headers): string | undefined {
  if (getEnv().SUNDOWN_TRUST_PROXY) {
    // The nearest proxy appends the address it saw; earlier entries are the client's own claims.
    const forwarded = headers.get("x-forwarded-for")?.split(",").at(-1);
    const address = normalizeAddress(forwarded);
    if (address) return address;
  }
  return normalizeAddress(headers.get(PEER_ADDRESS_HEADER));
}

export function normalizeAddress(raw: string | null | undefined): string | undefined {
  const value = raw?.trim().replace(/^\[(.*)\]$/, "$1");
  if (!value) return undefined;
  const version = isIP(value);
  if (version === 4) return value;
  if (version !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped) return mapped[1];
  return `${expandIpv6(value).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  if (right.at(-1)?.includes(".") || left.at(-1)?.includes(".")) {
    // An embedded IPv4 tail counts as two groups.
    const groups = address.includes("::") ? right : left;
    const v4 = groups.pop()!.split(".").map(Number);
    groups.push(((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16));
  }
  const fill = address.includes("::") ? 8 - left.length - right.length : 0;
  return [...left, ...Array<string>(fill).fill("0"), ...right].map((g) => parseInt(g, 16).toString(16));
}
