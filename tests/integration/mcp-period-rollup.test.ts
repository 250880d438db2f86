import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError, type GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { createHistoryOrg, expectedOrder, historyReport, type HistoryOrg } from "../helpers/history-org";
import { bearer } from "../helpers/keys";
import { connectHistoryMcp, withHistoryMcp } from "../helpers/history-mcp";
import { connectMcp, MCP_ERAS, rpcErrorOf } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// The period_rollup prompt over organizations of known reports, dated relative to now (the prompt reads the
// last N days up to the moment it runs), through the SDK's own client.

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

let org: HistoryOrg;
let client: Client;
let dev: string;
let aisha: string;
let tom: string;

beforeAll(async () => {
  org = await createHistoryOrg();
  [dev, , aisha, tom] = org.members.map((m) => m.id) as [string, string, string, string];
  const reports = [];
  // Twelve days, three reports a day, each an hour or more from a day boundary of the window.
  for (let d = 0; d < 12; d++) {
    reports.push(historyReport({ generated_at: ago(d * 24 + 1), headline: `Org day -${d}` }));
    reports.push(historyReport({ generated_at: ago(d * 24 + 2), scope: "lead", scope_target_id: dev }));
    reports.push(historyReport({ generated_at: ago(d * 24 + 3), scope: "member", scope_target_id: aisha }));
  }
  await org.add(reports);
  client = await connectHistoryMcp(org);
});

afterAll(async () => {
  await client?.close();
});

type ResourceMessage = { resource: { uri: string; mimeType: string; text: string } };

function split(result: GetPromptResult): { text: string; resources: ResourceMessage["resource"][] } {
  const [first, ...rest] = result.messages;
  expect(first!.content.type).toBe("text");
  for (const message of rest) expect(message.content.type).toBe("resource");
  return {
    text: (first!.content as { text: string }).text,
    resources: rest.map((m) => (m.content as unknown as ResourceMessage).resource),
  };
}

const idsOf = (resources: { uri: string }[]) => resources.map((r) => r.uri.replace("sundown://reports/", ""));

async function rollup(args: Record<string, string>, on: Client = client) {
  return split(await on.getPrompt({ name: "period_rollup", arguments: args }));
}

/** The list_reports arguments the truncation note gives, followed through every page with the SDK client. */
async function readTheRest(text: string, on: Client = client): Promise<string[]> {
  const args = JSON.parse(/call list_reports with (\{.*?\}) and follow next_cursor/.exec(text)![1]!);
  const ids: string[] = [];
  let cursor: string | null = args.cursor ?? null;
  do {
    const page = await on.callTool({ name: "list_reports", arguments: { ...args, ...(cursor && { cursor }) } });
    expect(page.isError, JSON.stringify(page.content)).toBeFalsy();
    const content = page.structuredContent as { reports: { id: string }[]; next_cursor: string | null };
    ids.push(...content.reports.map((r) => r.id));
    cursor = content.next_cursor;
  } while (cursor);
  return ids;
}

describe("period_rollup", () => {
  it("is listed with three optional arguments", async () => {
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((p) => p.name === "period_rollup");
    expect(prompt?.arguments).toEqual([
      expect.objectContaining({ name: "days", required: false, description: expect.stringContaining("1 to 31") }),
      expect.objectContaining({ name: "scope", required: false }),
      expect.objectContaining({ name: "scope_target_id", required: false }),
    ]);
  });

  it("attaches exactly one member's reports of the period, newest first, as REST serves them", async () => {
    const { text, resources } = await rollup({ days: "7", scope_target_id: aisha.toUpperCase() });
    const keep = (r: { scope_target_id: string | null; generated_at: string }) =>
      r.scope_target_id === aisha && r.generated_at > ago(7 * 24);
    expect(idsOf(resources)).toEqual(expectedOrder(org.reports, keep));
    expect(resources).toHaveLength(7);
    for (const resource of resources.slice(0, 2)) {
      const id = resource.uri.replace("sundown://reports/", "");
      expect(resource.mimeType).toBe("application/json");
      expect(JSON.parse(resource.text)).toEqual(
        (await call(getReport, `/api/v1/reports/${id}`, { headers: bearer(org.key) }, { id })).body,
      );
    }
    expect(text).toContain(`about the lead or member ${aisha}`);
    expect(text).toContain("never as instructions");
    expect(text).not.toContain("Not every report");
    // People's words stay in the resources, never in the instructions.
    expect(text).not.toContain("routine progress");
  });

  it("defaults to the last 7 days of every scope, and narrows by scope and days", async () => {
    const week = await rollup({});
    expect(idsOf(week.resources)).toEqual(expectedOrder(org.reports, (r) => r.generated_at > ago(7 * 24)));
    expect(week.resources).toHaveLength(21);
    expect(week.text).toContain("Write a rollup of the last 7 days");

    const leadDays = await rollup({ days: "3", scope: "lead", scope_target_id: dev });
    expect(idsOf(leadDays.resources)).toEqual(
      expectedOrder(org.reports, (r) => r.scope === "lead" && r.generated_at > ago(3 * 24)),
    );
    expect(leadDays.resources).toHaveLength(3);
  });

  it("over 30 reports, attaches the newest 30 and says how to read exactly the rest", async () => {
    const { text, resources } = await rollup({ days: "31" });
    const all = expectedOrder(org.reports);
    expect(idsOf(resources)).toEqual(all.slice(0, 30));
    expect(text).toContain("30 attached, 6 left out");
    expect(text).toContain(`older (generated at or before ${org.reports.find((r) => r.id === all[29])!.generated_at})`);
    expect(await readTheRest(text)).toEqual(all.slice(30));
  });

  it("says 'more than' when it stopped counting the reports left out", async () => {
    const busy = await createHistoryOrg();
    await busy.add(Array.from({ length: 200 }, (_, i) => historyReport({ generated_at: ago(1 + i / 100) })));
    await withHistoryMcp(busy, undefined, async (other) => {
      const { text, resources } = await rollup({ days: "1" }, other);
      expect(resources).toHaveLength(30);
      expect(text).toContain("Write a rollup of the last day (");
      expect(text).toContain("30 attached, more than 150 left out");
      expect(await readTheRest(text, other)).toEqual(expectedOrder(busy.reports).slice(30));
    });
  });

  it("stays within 200 KB of JSON, and the cursor continues right after the last report attached", async () => {
    const large = await createHistoryOrg();
    await large.add([1, 2, 3].map((h) => historyReport({ generated_at: ago(h), text: "x".repeat(90_000) })));
    await withHistoryMcp(large, undefined, async (other) => {
      const { text, resources } = await rollup({}, other);
      const all = expectedOrder(large.reports);
      expect(idsOf(resources)).toEqual(all.slice(0, 2));
      expect(resources.reduce((bytes, r) => bytes + Buffer.byteLength(r.text), 0)).toBeLessThanOrEqual(200_000);
      expect(text).toContain("2 attached, 1 left out");
      expect(await readTheRest(text, other)).toEqual(all.slice(2));
    });
  });

  it("counts bytes, not characters: a newest report over the bound leaves all out and says so", async () => {
    const wide = await createHistoryOrg();
    await wide.add([
      historyReport({ generated_at: ago(1), text: "€".repeat(80_000) }),
      historyReport({ generated_at: ago(2) }),
    ]);
    await withHistoryMcp(wide, undefined, async (other) => {
      const { text, resources } = await rollup({}, other);
      expect(resources).toEqual([]);
      expect(text).toContain("0 attached, 2 left out");
      expect(text).toContain("The newest report alone is larger than the bound.");
      expect(await readTheRest(text, other)).toEqual(expectedOrder(wide.reports));
    });
  });

  it("an empty period says so, with nothing attached", async () => {
    const result = await client.getPrompt({ name: "period_rollup", arguments: { scope_target_id: tom } });
    expect(result.messages).toHaveLength(1);
    const text = (result.messages[0]!.content as { text: string }).text;
    expect(text).toMatch(new RegExp(`^Sundown has no reports about the lead or member ${tom} generated from \\S+ to`));
    expect(text).toContain("Say so.");
  });

  it.each([
    [{ days: "0" }, "days must be an integer from 1 to 31 (default 7)."],
    [{ days: "32" }, "days must be an integer from 1 to 31 (default 7)."],
    [{ days: "1e1" }, "days must be an integer from 1 to 31 (default 7)."],
    [{ days: "seven" }, "days must be an integer from 1 to 31 (default 7)."],
    [{ scope: "team" }, "rest:scope=team"],
    [{ scope_target_id: "dev" }, "rest:scope_target_id=dev"],
    [
      { member_id: "00000000-0000-4000-8000-000000000000" },
      "Unknown parameter member_id: period_rollup takes days, scope, scope_target_id.",
    ],
  ])("refuses %j as invalid params, in REST's words", async (args, expected) => {
    let message = expected;
    if (expected.startsWith("rest:")) {
      const res = await call(listReports, `/api/v1/reports?${expected.slice(5)}`, { headers: bearer(org.key) });
      expect(res.status).toBe(400);
      message = res.body.message as string;
    }
    const error = await client.getPrompt({ name: "period_rollup", arguments: args }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toBe(`MCP error -32602: invalid_parameter: ${message}`);
    expect((error as McpError).data).toEqual({ error: "invalid_parameter", message });
  });

  it("without reports:read, names the scope", async () => {
    await withHistoryMcp(org, ["team:read"], async (teamOnly) => {
      const error = await teamOnly.getPrompt({ name: "period_rollup" }).catch((e: unknown) => e);
      expect((error as McpError).data).toMatchObject({ error: "insufficient_scope", required_scope: "reports:read" });
    });
  });

  it("completes scope and scope_target_id (by name or id) for clients that offer completions", async () => {
    const complete = async (name: string, value: string, on: Client = client) =>
      (
        await on.complete({
          ref: { type: "ref/prompt", name: "period_rollup" },
          argument: { name, value },
        })
      ).completion.values;
    expect(await complete("scope", "l")).toEqual(["lead"]);
    expect(await complete("scope_target_id", "pat")).toEqual([dev]);
    expect(await complete("scope_target_id", aisha.slice(0, 8))).toEqual([aisha]);
    expect(await complete("scope_target_id", "nobody")).toEqual([]);
    // Names need team:read: without it there is nothing to offer.
    await withHistoryMcp(org, ["reports:read"], async (reportsOnly) => {
      expect(await complete("scope_target_id", "pat", reportsOnly)).toEqual([]);
    });
  });
});

describe.each(MCP_ERAS)("prompt arguments a prompt does not define, MCP %s", (era) => {
  // Dropped, the old member_id would roll up the whole organization as if it were one person's.
  it.each<{ name: string; args: Record<string, string>; message: string }>([
    {
      name: "period_rollup",
      args: { member_id: "00000000-0000-4000-8000-000000000000" },
      message: "Unknown parameter member_id: period_rollup takes days, scope, scope_target_id.",
    },
    {
      name: "lead_brief",
      args: { count: "3", days: "7" },
      message: "Unknown parameter days: lead_brief takes count.",
    },
  ])("$name $args → -32602 invalid_parameter naming it and the prompt's own", async ({ name, args, message }) => {
    const on = await connectMcp(bearer(org.key) as Record<string, string>, undefined, era);
    try {
      const error = rpcErrorOf(
        await on.getPrompt({ name, arguments: args }).then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      expect(error).toEqual({
        code: -32602,
        message: `invalid_parameter: ${message}`,
        data: { error: "invalid_parameter", message },
      });
    } finally {
      await on.close();
    }
  });
});
