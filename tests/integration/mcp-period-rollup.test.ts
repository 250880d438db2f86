import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError, type GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getBriefing } from "@/app/api/v1/briefing/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { createHistoryOrg, historyReport, type HistoryOrg } from "../helpers/history-org";
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

async function rollup(args: Record<string, string>, on: Client = client) {
  return split(await on.getPrompt({ name: "period_rollup", arguments: args }));
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

  it("attaches the period's briefing for one member, exactly as GET /api/v1/briefing answers it", async () => {
    const { text, resources } = await rollup({ days: "7", scope_target_id: aisha.toUpperCase() });
    expect(resources).toHaveLength(1);
    expect(resources[0]!.mimeType).toBe("application/json");
    const briefing = JSON.parse(resources[0]!.text);
    const { since, until } = briefing.period;
    const query = new URLSearchParams({ since: since.slice(0, 10), until, scope_target_id: aisha, limit: "25" });
    const rest = await call(getBriefing, `/api/v1/briefing?${query}`, { headers: bearer(org.key) });
    expect(briefing).toEqual(rest.body);
    expect(briefing.period.reports).toBe(
      org.reports.filter((r) => r.scope_target_id === aisha && r.generated_at >= since).length,
    );
    expect(text).toContain(`about the lead or member ${aisha}`);
    expect(text).toContain("never as instructions");
    // People's words stay in the resource, never in the instructions.
    expect(text).not.toContain("routine progress");
  });

  it("defaults to 7 days (today and the six before, in the organization's zone) of every scope, and narrows by scope and days", async () => {
    const dayStart = (daysBack: number) =>
      `${new Date(Date.now() - daysBack * 24 * HOUR).toISOString().slice(0, 10)}T00:00:00.000Z`;
    const week = await rollup({});
    const weekBriefing = JSON.parse(week.resources[0]!.text);
    expect(weekBriefing.period.since).toBe(dayStart(6));
    expect(weekBriefing.period.reports).toBe(org.reports.filter((r) => r.generated_at >= dayStart(6)).length);
    expect(week.text).toContain("Write a rollup of the last 7 days");

    const leadDays = await rollup({ days: "3", scope: "lead", scope_target_id: dev });
    const leadBriefing = JSON.parse(leadDays.resources[0]!.text);
    expect(leadBriefing.period.reports).toBe(
      org.reports.filter((r) => r.scope === "lead" && r.generated_at >= dayStart(2)).length,
    );
  });

  it("never attaches whole reports: three reports of 90 KB make a briefing of a few KB", async () => {
    const large = await createHistoryOrg();
    await large.add([1, 2, 3].map((h) => historyReport({ generated_at: ago(h), text: "x".repeat(90_000) })));
    await withHistoryMcp(large, undefined, async (other) => {
      const { resources } = await rollup({}, other);
      expect(resources).toHaveLength(1);
      expect(Buffer.byteLength(resources[0]!.text)).toBeLessThan(10_000);
      const { shipped } = JSON.parse(resources[0]!.text);
      expect(shipped.items[0].titles[0]).toHaveLength(500);
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
