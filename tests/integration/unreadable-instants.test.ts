import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatKeyList } from "@/cli/format";
import { KeysTable } from "@/components/api-keys/keys-table";
import { runCommand } from "@/lib/cli/commands";
import { listApiKeys } from "@/lib/data/api-keys";
import { listKeyUsage } from "@/lib/data/key-usage";
import { getSql } from "@/lib/db";
import { createHistoryOrg, type HistoryOrg } from "../helpers/history-org";

// A key row whose expiry no date format can write: year 10000 in UTC, as one crafted settings form stored before
// expiries were bounded (lib/schemas/instant.ts). PostgreSQL holds it and the API's SQL compares it fine, but the
// driver reads it back as Invalid Date. The settings page and `keys list` show that one value as "invalid" and
// keep serving the organization's other keys; they used to fail whole, for every founder and lead, for good.

let org: HistoryOrg;

beforeAll(async () => {
  org = await createHistoryOrg();
  await (
    await getSql()
  ).rows(
    {
      name: "test-far-expiry",
      text: "UPDATE api_keys SET expires_at = '10000-01-01T04:59:59Z' WHERE organization_id = $1::uuid",
      planEachRun: true,
    },
    [org.organization.id],
  );
});

afterAll(() => org?.remove());

describe("a stored expiry past 9999", () => {
  it("the settings page renders the key with its expiry as invalid", async () => {
    const keys = await listApiKeys(org.organization.id);
    const usageOf = await listKeyUsage(org.organization.id);
    const noAction = async () => ({ status: "idle" as const });
    const html = renderToStaticMarkup(
      createElement(KeysTable, { keys, usageOf, revokeAction: noAction, rollAction: noAction, showAllInactive: false }),
    );
    const row = /<tr id="key-[^"]+">(.*?)<\/tr>/.exec(html)?.[1]?.replace(/<[^>]+>/g, " ");
    expect(row).toContain("history-test");
    expect(row).toMatch(/ invalid /);
  });

  it("keys list prints the expiry as invalid, in the table and in JSON", async () => {
    const result = await runCommand("keys.list", { org: org.organization.slug });
    expect(result.keys).toEqual([expect.objectContaining({ name: "history-test", expires_at: "invalid" })]);
    expect(formatKeyList(result)).toMatch(/history-test .* invalid /);
  });
});
