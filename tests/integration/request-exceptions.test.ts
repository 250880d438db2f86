import { Session } from "node:inspector";
import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/mcp/route";
import { GET as identity } from "@/app/api/v1/me/route";
import { GET as getReport } from "@/app/api/v1/reports/[id]/route";
import { GET as listReports } from "@/app/api/v1/reports/route";
import { GET as listTeam } from "@/app/api/v1/team/route";
import { ALL_SCOPES, bearer, mintKey } from "../helpers/keys";
import { MCP_ERAS, toolCallInit } from "../helpers/mcp-client";
import { call } from "../helpers/request";

// An exception thrown and caught costs a stack trace, however deep the request's stack: Node 24's createHmac threw
// twice per page cursor signed with a Buffer key, about 10 µs a list (bench/findings.md). A warm request that
// succeeds throws nothing on its way; this counts what is thrown, anywhere (our code, Node's, a library's), with the
// inspector pausing on every exception and resuming at once.

/** Where each exception thrown while `send` runs was thrown: its three innermost frames. */
async function exceptionsThrownBy(send: () => Promise<unknown>): Promise<string[]> {
  const session = new Session();
  session.connect();
  const thrown: string[] = [];
  // Call frames name their script by id; Debugger.enable reports every script's URL first.
  const urls = new Map<string, string>();
  session.on("Debugger.scriptParsed", ({ params }) => urls.set(params.scriptId, params.url));
  session.on("Debugger.paused", ({ params }) => {
    thrown.push(
      params.callFrames
        .slice(0, 3)
        .map(
          ({ functionName, location }) =>
            `${functionName || "(anonymous)"} (${urls.get(location.scriptId)}:${location.lineNumber + 1})`,
        )
        .join(" < "),
    );
    session.post("Debugger.resume");
  });
  session.post("Debugger.enable");
  session.post("Debugger.setPauseOnExceptions", { state: "all" });
  try {
    await send();
  } finally {
    session.post("Debugger.setPauseOnExceptions", { state: "none" });
    session.post("Debugger.disable");
    session.disconnect();
  }
  return thrown;
}

let auth: Record<string, string>;

beforeAll(async () => {
  auth = bearer((await mintKey("acme", ALL_SCOPES)).key) as Record<string, string>;
});

/** What agents ask a warm instance: the list and its next page, one report, the roster, the key, MCP in both eras. */
const REQUESTS: [string, () => Promise<{ status: number; body: any }>][] = [
  ["GET /api/v1/reports", () => call(listReports, "/api/v1/reports?limit=2", { headers: auth })],
  [
    "GET /api/v1/reports, its next page",
    async () => {
      const first = await call(listReports, "/api/v1/reports?limit=2", { headers: auth });
      const cursor = encodeURIComponent(first.body.next_cursor);
      return call(listReports, `/api/v1/reports?limit=2&cursor=${cursor}`, { headers: auth });
    },
  ],
  [
    "GET /api/v1/reports/{id}",
    async () => {
      const { body } = await call(listReports, "/api/v1/reports?limit=1", { headers: auth });
      const id = body.reports[0].id as string;
      return call(getReport, `/api/v1/reports/${id}`, { headers: auth }, { id });
    },
  ],
  ["GET /api/v1/team", () => call(listTeam, "/api/v1/team", { headers: auth })],
  ["GET /api/v1/me", () => call(identity, "/api/v1/me", { headers: auth })],
  ...MCP_ERAS.map((era): [string, () => Promise<{ status: number; body: any }>] => [
    `MCP tools/call list_reports, ${era}`,
    () => call(POST, "/api/mcp", toolCallInit(era, "list_reports", { limit: 2 }, auth)),
  ]),
];

describe("a warm request that succeeds", () => {
  it.each(REQUESTS)("throws no exception on its way: %s", async (_name, send) => {
    // Warm: modules loaded, the key and the organization's contact details known, statements prepared.
    for (let i = 0; i < 3; i++) {
      const { status, body } = await send();
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.isError ?? body.result?.isError ?? false).toBe(false);
    }
    expect(await exceptionsThrownBy(send)).toEqual([]);
  });
});
