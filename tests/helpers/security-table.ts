import { generateApiKey, KEY_PREFIX } from "@/lib/auth/api-key";
import type { Scope } from "@/lib/auth/scopes";
import { revokeApiKey } from "@/lib/data/api-keys";
import { mintKey } from "./keys";

/** One credential case of the shared security table: how to make the headers, and what the API must answer. */
export interface SecurityCase {
  name: string;
  headers: () => Promise<Record<string, string>>;
  expect: { status: 401; error: "unauthorized"; challenge: string } | { status: 403; error: "insufficient_scope" };
}

function flipChecksum(key: string): string {
  return key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
}

/**
 * Every keyed route runs these. `required` is the route's scope (undefined: any valid key).
 * The "other organization" case lives with each route, since its answer depends on the resource.
 */
export function securityCases(required: Scope | undefined): SecurityCase[] {
  // RFC 6750 §3: error="invalid_token" once a credential was presented, the bare scheme when none was.
  const noKey = { status: 401, error: "unauthorized", challenge: 'Bearer realm="sundown"' } as const;
  const unauthorized = {
    status: 401,
    error: "unauthorized",
    challenge: 'Bearer realm="sundown", error="invalid_token"',
  } as const;
  const cases: SecurityCase[] = [
    { name: "no key", headers: async () => ({}), expect: noKey },
    { name: "empty Bearer", headers: async () => ({ Authorization: "Bearer " }), expect: unauthorized },
    { name: "Bearer with no space", headers: async () => ({ Authorization: "Bearer" }), expect: unauthorized },
    {
      name: "wrong scheme (Basic)",
      headers: async () => ({ Authorization: `Basic ${btoa("user:pass")}` }),
      expect: unauthorized,
    },
    {
      name: "key without scheme",
      headers: async () => ({ Authorization: (await mintKey()).key }),
      expect: unauthorized,
    },
    { name: "empty X-API-Key", headers: async () => ({ "X-API-Key": "" }), expect: unauthorized },
    {
      name: "malformed key",
      headers: async () => ({ Authorization: `Bearer ${KEY_PREFIX}not-a-key` }),
      expect: unauthorized,
    },
    {
      name: "other service's prefix",
      headers: async () => ({ Authorization: `Bearer sk_live_${"a".repeat(38)}` }),
      expect: unauthorized,
    },
    {
      name: "wrong checksum",
      headers: async () => ({ Authorization: `Bearer ${flipChecksum((await mintKey()).key)}` }),
      expect: unauthorized,
    },
    {
      name: "unknown key (well-formed, never issued)",
      headers: async () => ({ Authorization: `Bearer ${generateApiKey().secret}` }),
      expect: unauthorized,
    },
    {
      name: "revoked key",
      headers: async () => {
        const k = await mintKey();
        await revokeApiKey(k.organization.id, k.id, { label: "test" });
        return { Authorization: `Bearer ${k.key}` };
      },
      expect: unauthorized,
    },
    {
      name: "expired key",
      headers: async () => ({
        Authorization: `Bearer ${(await mintKey("acme", ["reports:read", "team:read"], new Date(Date.now() - 1000))).key}`,
      }),
      expect: unauthorized,
    },
    {
      name: "two different keys in Authorization and X-API-Key",
      headers: async () => ({ Authorization: `Bearer ${(await mintKey()).key}`, "X-API-Key": (await mintKey()).key }),
      expect: unauthorized,
    },
    {
      // Two header lines arrive joined by a comma (fetch Headers; on a real server, the request guard).
      name: "two Authorization headers",
      headers: async () => ({ Authorization: `Bearer ${(await mintKey()).key}, Bearer ${(await mintKey()).key}` }),
      expect: unauthorized,
    },
  ];
  if (required) {
    const other: Scope = required === "reports:read" ? "team:read" : "reports:read";
    cases.push({
      name: `valid key without ${required}`,
      headers: async () => ({ Authorization: `Bearer ${(await mintKey("acme", [other])).key}` }),
      expect: { status: 403, error: "insufficient_scope" },
    });
  }
  return cases;
}
