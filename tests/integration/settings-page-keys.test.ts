import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { PAGE_BENCH_MIX, seedKeyHistory } from "@/bench/key-history-seed";
import { INACTIVE_SHOWN, KeysTable } from "@/components/api-keys/keys-table";
import { listApiKeys } from "@/lib/data/api-keys";
import { listKeyUsage, type UsageOfKey } from "@/lib/data/key-usage";

// The settings page with 200 keys: what a founder sees first are the keys in use, those needing attention at
// the top; the revoked and expired ones are collapsed, out of the way but one click from view.

const noAction = async () => ({ status: "idle" as const });
const { keys: total, active, expiringSoon, rolled, expired } = PAGE_BENCH_MIX;
const inactive = total - active - expiringSoon - rolled;

let keys: Awaited<ReturnType<typeof listApiKeys>>;
let usageOf: UsageOfKey;

/** The keys section as the server renders it: the open part, and the collapsed one (`<details>` onwards). */
function render(showAllInactive: boolean) {
  const html = renderToStaticMarkup(
    createElement(KeysTable, { keys, usageOf, revokeAction: noAction, rollAction: noAction, showAllInactive }),
  );
  const at = html.indexOf("<details");
  return { open: html.slice(0, at), collapsed: html.slice(at) };
}

/** Each key row's text, tags removed. */
const rows = (html: string) =>
  [...html.matchAll(/<tr id="key-[^"]+">(.*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "));

beforeAll(async () => {
  const { organizationId } = await seedKeyHistory(PAGE_BENCH_MIX);
  keys = await listApiKeys(organizationId);
  usageOf = await listKeyUsage(organizationId);
});

describe("the keys section with 200 keys", () => {
  it("shows the keys in use in the open table, rolled and expiring soon first", () => {
    const inUse = rows(render(false).open);
    expect(inUse).toHaveLength(active + expiringSoon + rolled);
    expect(inUse.slice(0, rolled).every((r) => / Rolled stops at .* replaced by sdn_sk_/.test(r))).toBe(true);
    expect(inUse.slice(rolled, rolled + expiringSoon).every((r) => r.includes(" Active Expires in 3 days "))).toBe(
      true,
    );
    expect(inUse.slice(rolled + expiringSoon).every((r) => r.includes(" Active ") && !r.includes("Expires in"))).toBe(
      true,
    );
    // Roll and revoke on active keys; only revoke (ending the overlap) on a rolled one.
    expect(inUse[0]).toContain(" Revoke agent-");
    expect(inUse[0]).not.toContain(" Roll agent-");
    expect(inUse.at(-1)).toContain(" Roll agent-");
  });

  it("collapses the revoked and expired keys behind a closed disclosure, only the newest rendered", () => {
    const { collapsed } = render(false);
    expect(collapsed).toMatch(/^<details id="inactive-keys" class="inactive-keys"><summary>/);
    expect(collapsed).toContain(`<summary>Revoked and expired keys (${inactive})</summary>`);
    expect(rows(collapsed)).toHaveLength(INACTIVE_SHOWN);
    expect(collapsed).toContain(`<a href="?inactive=all#inactive-keys">Show all ${inactive}</a>`);
    // Nothing left to do with a key that no longer works: no buttons, and no dialog rendered per row.
    expect(collapsed).not.toMatch(/<button|<dialog/);
  });

  it("asked for all, renders every inactive key, expired ones labelled expired, the disclosure open", () => {
    const { collapsed } = render(true);
    expect(collapsed).toMatch(/^<details id="inactive-keys" class="inactive-keys" open=""><summary>/);
    expect(rows(collapsed)).toHaveLength(inactive);
    expect(rows(collapsed).filter((r) => r.includes(" Expired "))).toHaveLength(expired);
    expect(collapsed).not.toContain("Show all");
  });
});
