import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { TOOLS } from "@/lib/mcp/tools";
import { encodeCursor } from "@/lib/operations/cursor-signature";
import { parseRestInput, parseToolArguments, restPathOf } from "@/lib/operations/input";
import { reportPaging } from "@/lib/operations/list-reports";
import { endpointOf, KEYED_OPERATIONS, OPERATIONS } from "@/lib/operations/table";

// Each input is judged by the table's parse function, whichever surface it arrives on: REST's query string or
// path, or an MCP tool's arguments. Same input, same answer, same message.

function limitOf(query: string) {
  return parseRestInput(OPERATIONS.list_reports, new URLSearchParams(query), {}).limit;
}

function parseReportLimit(limit: unknown) {
  return parseToolArguments(OPERATIONS.list_reports, { limit }).limit;
}

function parseReportId(id: unknown) {
  return parseToolArguments(OPERATIONS.get_report, { id }).id;
}

function restReportId(id: unknown) {
  return parseRestInput(OPERATIONS.get_report, new URLSearchParams(), { id }).id;
}

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("limit", () => {
  it("defaults to 14", () => expect(limitOf("")).toBe(14));
  it.each([
    ["1", 1],
    ["50", 50],
    ["14", 14],
    ["007", 7],
  ])("accepts %s", (raw, n) => expect(limitOf(`limit=${raw}`)).toBe(n));
  it.each([
    "0",
    "51",
    "-1",
    "1e1",
    "0x10",
    " 5",
    "5 ",
    "5.0",
    "5.",
    "+5",
    "",
    "abc",
    "١٢",
    "99999999999999999999",
    "NaN",
    "Infinity",
  ])("refuses %j with invalid_parameter naming the parameter and bounds", (raw) => {
    const error = refusal(() => limitOf(`limit=${encodeURIComponent(raw)}`));
    expect(error.code).toBe("invalid_parameter");
    expect(error.status).toBe(400);
    expect(error.message).toContain("limit");
    expect(error.message).toContain("1 to 50");
  });
  it("refuses a repeated limit, even when both values are valid", () => {
    const error = refusal(() => limitOf("limit=5&limit=5"));
    expect(error.code).toBe("invalid_parameter");
    expect(error.message).toContain("only once");
  });
});

describe("limit as a JSON value (MCP's list_reports argument)", () => {
  it("is the default when absent and the number when an integer in bounds", () => {
    expect(parseReportLimit(undefined)).toBe(14);
    expect(parseReportLimit(50)).toBe(50);
  });
  it.each([0, 51, 2.5, -1, "5", null, true, Number.NaN])(
    "refuses %j with the message REST gives a bad query value",
    (value) => {
      const error = refusal(() => parseReportLimit(value));
      expect(error.code).toBe("invalid_parameter");
      expect(error.message).toBe(refusal(() => limitOf("limit=abc")).message);
    },
  );
});

describe("report id", () => {
  it("accepts a UUID and normalises it to lowercase", () => {
    expect(parseReportId("3F2B6C1E-8A4D-4E2F-9B7A-1C2D3E4F5A6B")).toBe("3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b");
  });
  it.each([
    "nope",
    "",
    "3f2b6c1e8a4d4e2f9b7a1c2d3e4f5a6b",
    "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6",
    "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6bx",
    "{3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b}",
    "g f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b",
    "' OR 1=1 --",
  ])("refuses %j with invalid_parameter", (raw) => {
    const error = refusal(() => parseReportId(raw));
    expect(error.code).toBe("invalid_parameter");
    expect(error.message).toContain("id must be a UUID");
  });
  it("refuses a non-string id", () => expect(refusal(() => parseReportId(["a", "b"])).code).toBe("invalid_parameter"));

  it("gets the same answer from a REST path and a tool argument, whatever the UUID's version bits", () => {
    for (const id of [
      "12345678-1234-1234-1234-123456789012",
      "00000000-0000-0000-0000-000000000000",
      "3F2B6C1E-8A4D-4E2F-9B7A-1C2D3E4F5A6B",
    ]) {
      expect(parseReportId(id)).toBe(restReportId(id));
    }
    expect(refusal(() => parseReportId("nope")).message).toBe(refusal(() => restReportId("nope")).message);
  });

  it("is published in tools/list as a schema that accepts every id the parse function accepts", () => {
    const tool = TOOLS.find((t) => t.name === "get_report")!;
    const validate = new Ajv2020({ strict: false }).compile(z.toJSONSchema(tool.input));
    for (const id of ["12345678-1234-1234-1234-123456789012", "3F2B6C1E-8A4D-4E2F-9B7A-1C2D3E4F5A6B"]) {
      expect(validate({ id }), id).toBe(true);
    }
    expect(validate({ id: "nope" })).toBe(false);
  });
});

describe("names an operation does not define: refused on both surfaces, naming them and the known ones", () => {
  const LIST_REPORTS_TAKES = "limit, since, until, scope, scope_target_id, q, cursor, expand";

  it.each([
    [
      "member_id=3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b",
      `Unknown parameter member_id: GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`,
    ],
    ["foo=bar&limit=3", `Unknown parameter foo: GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    // Before any value is judged: the misspelt name is the likelier mistake.
    ["limit=banana&Limit=3", `Unknown parameter Limit: GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    ["limit=3&api_key=sdn_sk_x", `Unknown parameter api_key: GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    ["=x", `Unknown parameter "": GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    // Issue 34: a name is quoted back as a bounded excerpt, its invisible and bidi-control characters as escapes.
    [`${"n".repeat(70)}=1`, `Unknown parameter "${"n".repeat(40)}"…: GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    ["a%22b=1", `Unknown parameter "a\\"b": GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    ["%E2%80%AEevil=1", `Unknown parameter "\\u202eevil": GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
    [
      "x%F3%A0%81%89%F3%A0%81%87%F3%A0%81%8E=1",
      `Unknown parameter "x\\u{e0049}\\u{e0047}\\u{e004e}": GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`,
    ],
    ["a%0Ab%1B%5B2J=1", `Unknown parameter "a\\nb\\u001b[2J": GET /api/v1/reports takes ${LIST_REPORTS_TAKES}.`],
  ])("REST list_reports ?%s", (query, message) => {
    const error = refusal(() => parseRestInput(OPERATIONS.list_reports, new URLSearchParams(query), {}));
    expect([error.code, error.status, error.message]).toEqual(["invalid_parameter", 400, message]);
  });

  it("REST: a path parameter is no query parameter, and an operation without any refuses every name", () => {
    const id = "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b";
    expect(refusal(() => parseRestInput(OPERATIONS.get_report, new URLSearchParams(`id=${id}`), { id })).message).toBe(
      "Unknown parameter id: GET /api/v1/reports/{id} takes no query parameters.",
    );
    expect(refusal(() => parseRestInput(OPERATIONS.identity, new URLSearchParams("foo=1"), {})).message).toBe(
      "Unknown parameter foo: GET /api/v1/me takes no query parameters.",
    );
    expect(refusal(() => parseRestInput(OPERATIONS.team, new URLSearchParams("roles=lead"), {})).message).toBe(
      "Unknown parameter roles: GET /api/v1/team takes role, active.",
    );
    expect(parseRestInput(OPERATIONS.identity, new URLSearchParams(""), {})).toEqual({});
  });

  it("MCP: a tool argument is named in the tool's terms, with the tool's arguments", () => {
    const message = (name: keyof typeof OPERATIONS, args: Record<string, unknown>) =>
      refusal(() => parseToolArguments(OPERATIONS[name], args)).message;
    expect(message("list_reports", { member_id: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b" })).toBe(
      `Unknown parameter member_id: list_reports takes ${LIST_REPORTS_TAKES}.`,
    );
    expect(message("identity", { foo: 1 })).toBe("Unknown parameter foo: whoami takes no parameters.");
    expect(message("get_report", { id: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b", full: true })).toBe(
      "Unknown parameter full: get_report takes id.",
    );
    expect(message("team", JSON.parse('{"__proto__": {"role": "lead"}}'))).toBe(
      "Unknown parameter __proto__: list_team takes role, active.",
    );
  });

  it("lists exactly the table's parameters, for every keyed operation on both surfaces", () => {
    for (const operation of KEYED_OPERATIONS) {
      const parameters = Object.entries(operation.parameters);
      const names = parameters.map(([name]) => name);
      const query = parameters.filter(([, parameter]) => parameter.in === "query").map(([name]) => name);
      const rest = refusal(() => parseRestInput(operation, new URLSearchParams("unknown=1"), {}));
      expect(rest.message).toBe(
        `Unknown parameter unknown: ${endpointOf(operation)} takes ${query.join(", ") || "no query parameters"}.`,
      );
      const tool = refusal(() => parseToolArguments(operation, { unknown: 1 }));
      expect(tool.message).toBe(
        `Unknown parameter unknown: ${operation.tool!.name} takes ${names.join(", ") || "no parameters"}.`,
      );
    }
  });

  it("are published: every tool's input schema allows no other property", () => {
    for (const tool of TOOLS) {
      expect(z.toJSONSchema(tool.input, { io: "input" }), tool.name).toMatchObject({
        type: "object",
        additionalProperties: false,
      });
    }
  });
});

describe("REST paths from an input (the stdio server's requests)", () => {
  it("are read back by the REST parser as the same input", () => {
    const path = restPathOf(OPERATIONS.list_reports, { limit: 7 });
    expect(path).toBe("/api/v1/reports?limit=7");
    const url = new URL(path, "http://x");
    expect(parseRestInput(OPERATIONS.list_reports, url.searchParams, {})).toEqual({ limit: 7 });
    expect(restPathOf(OPERATIONS.get_report, { id: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b" })).toBe(
      "/api/v1/reports/3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b",
    );
    expect(restPathOf(OPERATIONS.team, {})).toBe("/api/v1/team");
    expect(restPathOf(OPERATIONS.team, { role: "lead", active: false })).toBe("/api/v1/team?role=lead&active=false");
  });

  it("carry a cursor through unchanged: the stdio server cannot (and need not) check its signature", () => {
    const text = encodeCursor({
      organizationId: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6b",
      filters: reportPaging.digest({ scope: "lead" }),
      generatedAt: "2026-11-20T17:00:00.000Z",
      id: "3f2b6c1e-8a4d-4e2f-9b7a-1c2d3e4f5a6c",
    });
    const input = parseToolArguments(OPERATIONS.list_reports, { limit: 5, scope: "lead", cursor: text });
    const url = new URL(restPathOf(OPERATIONS.list_reports, input), "http://x");
    expect(url.searchParams.get("cursor")).toBe(text);
    expect(parseRestInput(OPERATIONS.list_reports, url.searchParams, {}).cursor?.text).toBe(text);
  });
});

describe("active (GET /api/v1/team, list_team): one rule for a query string and a tool argument", () => {
  const rest = (text: string) => parseRestInput(OPERATIONS.team, new URLSearchParams({ active: text }), {}).active;
  const tool = (value: unknown) => parseToolArguments(OPERATIONS.team, { active: value }).active;

  it.each([
    [true, true],
    [false, false],
    ["true", true],
    ["false", false],
    // As LLM clients and Python's str(True) spell them.
    ["True", true],
    ["FALSE", false],
  ])("reads %j as %j on both surfaces", (value, expected) => {
    expect(tool(value)).toBe(expected);
    if (typeof value === "string") expect(rest(value)).toBe(expected);
  });

  it("is absent when not given", () => {
    expect(parseToolArguments(OPERATIONS.team, {}).active).toBeUndefined();
  });

  it.each(["yes", "1", "", " true", "t", "constructor", "toString"])(
    "refuses the text %j with the same message on both surfaces",
    (text) => {
      expect(refusal(() => rest(text)).message).toBe("active must be true or false.");
      expect(refusal(() => tool(text)).message).toBe("active must be true or false.");
    },
  );

  it.each([1, 0, null, ["true"], { value: true }])("refuses the JSON value %j", (value) => {
    expect(refusal(() => tool(value))).toMatchObject({
      code: "invalid_parameter",
      message: "active must be true or false.",
    });
  });
});
