import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { generateApiKey } from "@/lib/auth/api-key";
import { PEER_ADDRESS_HEADER } from "@/lib/ratelimit/client-address";
import { withEnv } from "../helpers/env";
import { bearer, mintKey } from "../helpers/keys";
import { connectMcp } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// Issue 11 item 3: the per-address budget limits failed attempts only. Clients behind one NAT or proxy share an
// address; one of them sending bad keys must not lock the others' valid keys out, on REST or MCP.

beforeAll(() => mintKey());

const ADDRESS_LIMIT = 5;
const ADDRESS_REFUSED = {
  error: "rate_limited",
  message: "Too many requests without a valid API key from this address. Retry after the time in Retry-After.",
};

function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** Runs `work` from a fresh address whose budget (ADDRESS_LIMIT failures a minute) is spent: its last failure got 429. */
function fromExhaustedAddress(work: (address: string) => Promise<void>) {
  return withEnv({ SUNDOWN_ADDRESS_RATE_LIMIT: String(ADDRESS_LIMIT) }, async () => {
    const address = randomAddress();
    const failures = [];
    // Every kind of failed attempt counts: no key, a malformed key, a well-formed unknown key.
    const attempts = [{}, bearer("sdn_sk_guess"), bearer(generateApiKey().secret)];
    for (let i = 0; i <= ADDRESS_LIMIT; i++) {
      failures.push(
        await call(getMe, "/api/v1/me", {
          headers: { [PEER_ADDRESS_HEADER]: address, ...attempts[i % attempts.length] },
        }),
      );
    }
    expect(failures.map((r) => r.status)).toEqual([...Array(ADDRESS_LIMIT).fill(401), 429]);
    await work(address);
  });
}

describe("a valid key is served whatever its address's failure count", () => {
  it("REST: a valid key gets 200 with its own budget's headers; further bad keys get 429 with the address's", () =>
    fromExhaustedAddress(async (address) => {
      const { key } = await mintKey();
      const served = await call(listReports, "/api/v1/reports", {
        headers: { [PEER_ADDRESS_HEADER]: address, ...bearer(key) },
      });
      expect(served.status).toBe(200);
      expect(served.body.reports.length).toBeGreaterThan(0);
      expect(served.headers.get("ratelimit-policy")).toBe('"per-key";q=120;w=60');

      for (const headers of [{}, bearer("sdn_sk_guess"), bearer(generateApiKey().secret)]) {
        const refused = await call(getMe, "/api/v1/me", { headers: { [PEER_ADDRESS_HEADER]: address, ...headers } });
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({ ...ADDRESS_REFUSED, request_id: refused.headers.get("x-request-id") });
        expect(refused.headers.get("ratelimit-policy")).toBe(`"per-address";q=${ADDRESS_LIMIT};w=60`);
        expect(refused.headers.get("ratelimit")).toMatch(/^"per-address";r=0;t=\d+$/);
        expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      }
    }));

  it("MCP (the SDK's client): a valid key connects and calls tools; a bad key is refused with 429", () =>
    fromExhaustedAddress(async (address) => {
      const { key, organization } = await mintKey();
      const client = await connectMcp({ [PEER_ADDRESS_HEADER]: address, ...(bearer(key) as Record<string, string>) });
      try {
        const whoami = await client.callTool({ name: "whoami", arguments: {} });
        expect(whoami.isError).toBeFalsy();
        expect(whoami.structuredContent).toMatchObject({ organization: { id: organization.id } });
      } finally {
        await client.close();
      }

      const error = await connectMcp({
        [PEER_ADDRESS_HEADER]: address,
        Authorization: `Bearer ${generateApiKey().secret}`,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 429 });
      expect((error as Error).message).toContain('"error":"rate_limited"');
    }));
});
