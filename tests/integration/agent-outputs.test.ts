import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { createApiKey } from "@/lib/data/api-keys";
import { getDb } from "@/lib/db";
import { MESSAGE_MAX } from "@/lib/text/input-excerpt";
import { PROVENANCE_LINE, PROVENANCE_META } from "@/lib/mcp/provenance";
import { bearer, mintKey } from "../helpers/keys";
import { connectMcp, MCP_ERAS, textOf, type McpTestClient } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// Issue 34, "outputs safe to hand an agent": on MCP every result that carries people-written text says so (the
// first line of a tool's text, `_meta` of tool results, resource contents and the reports a prompt attaches), while
// the contract's objects stay exactly REST's; an error never quotes what was sent beyond a bounded excerpt with its
// invisible and bidirectional-control characters escaped; and the roster's names lose their invisible characters as
// report text does (tests/integration/contact-spellings.test.ts follows report text through every surface).

let key: string;
const clients: Partial<Record<(typeof MCP_ERAS)[number], McpTestClient>> = {};

beforeAll(async () => {
  key = (await mintKey("acme")).key;
  for (const era of MCP_ERAS) clients[era] = await connectMcp(bearer(key) as Record<string, string>, undefined, era);
});

afterAll(async () => {
  await Promise.all(Object.values(clients).map((client) => client.close()));
});

const rest = async (handler: typeof listReports, path: string, params: Record<string, string> = {}) =>
  (await call(handler, path, { headers: bearer(key) }, params)).body;

// Long, and carrying a right-to-left override, a tag character and an escape sequence.
const HOSTILE = `\u202e${"x".repeat(5000)}\u{e0041}\u001b[2J`;

/** The error a call is refused with, as the client raises it. */
async function refusal(run: () => Promise<unknown>): Promise<{ message: string; data?: unknown }> {
  try {
    await run();
  } catch (error) {
    return error as { message: string; data?: unknown };
  }
  throw new Error("expected the call to be refused");
}

/** Quotes at most a bounded excerpt, with no invisible, bidi-control or control character left raw. */
function expectBoundedAndEscaped(text: string) {
  expect(text.length).toBeLessThanOrEqual(MESSAGE_MAX + 40);
  expect(text).not.toMatch(/[\u202e\u001b]|\u{e0041}/u);
  expect(text).not.toContain("x".repeat(MESSAGE_MAX));
}

describe.each(MCP_ERAS)("MCP %s", (era) => {
  const client = () => clients[era]!;

  describe("provenance", () => {
    it("every tool's text starts with the provenance line, its _meta names it, its structuredContent is REST's", async () => {
      const { reports } = await rest(listReports, "/api/v1/reports?limit=1");
      const id = reports[0].id as string;
      const calls: [string, Record<string, unknown>, unknown][] = [
        ["whoami", {}, await rest(getMe, "/api/v1/me")],
        ["list_reports", { limit: 1 }, await rest(listReports, "/api/v1/reports?limit=1")],
        ["get_report", { id }, await rest(getReport, `/api/v1/reports/${id}`, { id })],
        ["list_team", {}, await rest(listTeam, "/api/v1/team")],
      ];
      for (const [name, args, restBody] of calls) {
        const result = await client().callTool({ name, arguments: args });
        expect(result.isError, name).toBeFalsy();
        expect(textOf(result).startsWith(`${PROVENANCE_LINE}\n\n`), name).toBe(true);
        expect(result._meta, name).toMatchObject(PROVENANCE_META);
        expect(result.structuredContent, name).toEqual(restBody);
      }
    });

    it("a tool error carries no provenance line: its text is the error alone", async () => {
      const result = await client().callTool({ name: "list_reports", arguments: { limit: 0 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^invalid_parameter: limit must be/);
    });

    it("resource contents carry it in _meta, and their text is REST's JSON", async () => {
      const { reports } = await rest(listReports, "/api/v1/reports?limit=1");
      const id = reports[0].id as string;
      const day = (reports[0].generated_at as string).slice(0, 10);
      for (const uri of ["sundown://reports/latest", `sundown://reports/${id}`, `sundown://reports/day/${day}`]) {
        const { contents } = await client().readResource({ uri });
        expect(contents, uri).toHaveLength(1);
        expect(contents[0]!._meta, uri).toMatchObject(PROVENANCE_META);
        expect(() => JSON.parse((contents[0] as { text: string }).text), uri).not.toThrow();
      }
      const { contents } = await client().readResource({ uri: `sundown://reports/${id}` });
      expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(
        await rest(getReport, `/api/v1/reports/${id}`, { id }),
      );
    });

    it("the reports a prompt attaches carry it in _meta", async () => {
      for (const [name, args] of [
        ["lead_brief", { count: "2" }],
        ["period_rollup", { days: "31" }],
      ] as const) {
        const { messages } = await client().getPrompt({ name, arguments: args });
        const attached = messages.filter((message) => message.content.type === "resource");
        expect(attached.length, name).toBeGreaterThan(0);
        for (const message of attached) {
          expect((message.content as { resource: { _meta?: unknown } }).resource._meta, name).toMatchObject(
            PROVENANCE_META,
          );
        }
      }
    });
  });

  describe("errors quote a bounded, escaped excerpt of what was sent", () => {
    it("an unknown tool", async () => {
      const error = await refusal(() => client().callTool({ name: HOSTILE, arguments: {} }));
      expectBoundedAndEscaped(error.message);
      expect(error.message).toContain("\\u202exxx");
    });

    it("an unknown resource, with the URI its data names bounded too", async () => {
      const error = await refusal(() => client().readResource({ uri: `sundown://${HOSTILE}` }));
      expectBoundedAndEscaped(error.message);
      expectBoundedAndEscaped(JSON.stringify(error.data));
    });

    it("an unknown prompt", async () => {
      const error = await refusal(() => client().getPrompt({ name: HOSTILE, arguments: {} }));
      expectBoundedAndEscaped(error.message);
    });

    it("an argument no tool defines", async () => {
      const result = await client().callTool({ name: "list_reports", arguments: { [HOSTILE]: 1 } });
      expect(result.isError).toBe(true);
      expectBoundedAndEscaped(textOf(result));
      expect(textOf(result)).toMatch(/^invalid_parameter: Unknown parameter "\\u202ex{39}"…: list_reports takes /);
    });
  });
});

describe("the roster", () => {
  it("serves names and departments without invisible, bidi-control and tag characters, on REST and MCP", async () => {
    const db = await getDb();
    const organization = await db.organization.create({
      data: { slug: `roster-${Date.now()}`, name: "Roster" },
      select: { id: true },
    });
    try {
      await db.member.create({
        data: {
          organizationId: organization.id,
          name: "Dev\u200b Pa\u202etel\u{e0041}\u{e0042}",
          department: "\u2066Ops\u2069",
          role: "lead",
        },
      });
      const { key: rosterKey } = await createApiKey({
        organizationId: organization.id,
        name: "roster",
        scopes: ["team:read"],
        actor: { label: "test" },
      });
      const res = await call(listTeam, "/api/v1/team", { headers: bearer(rosterKey) });
      expect(res.body.members).toMatchObject([{ name: "Dev Patel", department: "Ops" }]);
      const client = await connectMcp(bearer(rosterKey) as Record<string, string>);
      try {
        const result = await client.callTool({ name: "list_team", arguments: {} });
        expect(result.structuredContent).toEqual(res.body);
        expect(textOf(result)).toContain("- Dev Patel · lead · Ops");
      } finally {
        await client.close();
      }
    } finally {
      await db.organization.delete({ where: { id: organization.id } });
    }
  });
});
