// `npm run bench:questions`: how many MCP tool calls ten questions agents ask of a team's reports take, with the
// tools before issue 39 (whoami, list_team, list_reports, get_report) and after (get_briefing, list_reports' expand),
// answered the way an agent following each tool's description would, with the MCP SDK's client against the demo
// organization. Each question is asked for real and its calls counted; the table goes into docs/mcp.md.
//
//   DATABASE_URL=postgresql://… npm run bench:questions      (the demo data seeded: node bin/sundown.mjs seed --demo)
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

if (!process.env.DATABASE_URL) throw new Error("bench:questions needs DATABASE_URL with the demo data");
process.env.SUNDOWN_LOG_LEVEL = "silent";
process.env.SUNDOWN_RATE_LIMIT = "10000000";

const { mintKey } = await import("../tests/helpers/keys");
const { connectMcp } = await import("../tests/helpers/mcp-client");
const { calendarDayIn } = await import("@/lib/schemas/time-zone");

const { key } = await mintKey("acme");
const client: Client = await connectMcp({ Authorization: `Bearer ${key}` });

/** What the questions read of an answer: loosely, as an agent reads JSON. */
type Json = Record<string, unknown> & {
  reports: { id: string }[];
  members: { id: string; name: string }[];
  next_cursor?: string | null;
};

let calls = 0;
async function tool(name: string, args: Record<string, unknown> = {}): Promise<Json> {
  calls++;
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Json;
}

const DAY_MS = 86_400_000;
const today = calendarDayIn(new Date(), "UTC");
const yesterday = calendarDayIn(new Date(Date.now() - DAY_MS), "UTC");
const week = { since: calendarDayIn(new Date(Date.now() - 6 * DAY_MS), "UTC"), until: today };

/** Every summary of a period, page by page, as list_reports' description says to walk it. */
async function walk(args: Record<string, unknown>): Promise<{ id: string }[]> {
  const reports: { id: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await tool("list_reports", { ...args, limit: 50, ...(cursor && { cursor }) });
    reports.push(...page.reports);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return reports;
}

/** Every report of a period in full: the summaries, then get_report for each. */
async function readAll(args: Record<string, unknown>): Promise<Json[]> {
  const summaries = await walk(args);
  return Promise.all(summaries.map((s) => tool("get_report", { id: s.id })));
}

async function newestOrgReport() {
  const { reports } = await tool("list_reports", { scope: "org", limit: 1 });
  return tool("get_report", { id: reports[0]!.id });
}

async function memberId(name: string): Promise<string> {
  const { members } = await tool("list_team");
  return members.find((m) => m.name.startsWith(name))!.id;
}

interface Question {
  question: string;
  before: () => Promise<unknown>;
  after: () => Promise<unknown>;
}

const QUESTIONS: Question[] = [
  {
    question: "What is blocked right now, and for how long?",
    before: newestOrgReport,
    after: () => tool("get_briefing"),
  },
  {
    question: "Who has been silent two days running?",
    before: async () => (await tool("list_team"), newestOrgReport()),
    after: () => tool("get_briefing"),
  },
  {
    question: "What slipped for Priya this week?",
    before: async () => readAll({ ...week, scope_target_id: await memberId("Priya") }),
    after: async () => tool("get_briefing", { ...week, scope_target_id: await memberId("Priya") }),
  },
  {
    question: "What did each person ship this week?",
    before: () => readAll(week),
    after: () => tool("get_briefing", week),
  },
  {
    question: "How did the KPIs move this week?",
    before: () => readAll({ ...week, scope: "org" }),
    after: () => tool("get_briefing", week),
  },
  {
    question: "Which blockers were resolved this week?",
    before: () => readAll(week),
    after: () => tool("get_briefing", week),
  },
  {
    question: "Which KPIs are off track right now?",
    before: newestOrgReport,
    after: () => tool("get_briefing", { limit: 100 }),
  },
  {
    question: "Which is the oldest open blocker, and which reports list it?",
    before: () => readAll({ since: calendarDayIn(new Date(Date.now() - 30 * DAY_MS), "UTC") }),
    after: () => tool("get_briefing", { since: calendarDayIn(new Date(Date.now() - 30 * DAY_MS), "UTC") }),
  },
  {
    question: "What did yesterday's reports say, in full?",
    before: () => readAll({ since: yesterday, until: yesterday }),
    after: () => walk({ since: yesterday, until: yesterday, expand: "report" }),
  },
  {
    question: "What did Dev's reports say this week, in full?",
    before: async () => readAll({ ...week, scope_target_id: await memberId("Dev") }),
    after: async () => walk({ ...week, scope_target_id: await memberId("Dev"), expand: "report" }),
  },
];

const rows: string[] = [];
for (const { question, before, after } of QUESTIONS) {
  calls = 0;
  await before();
  const callsBefore = calls;
  calls = 0;
  await after();
  rows.push(`| ${question} | ${callsBefore} | ${calls} |`);
}
console.log(["| question | calls before | calls after |", "| --- | ---: | ---: |", ...rows].join("\n"));
await client.close();
process.exit(0);
