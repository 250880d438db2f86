import { describe, expect, it } from "vitest";
import {
  ImportError,
  IMPORT_LIMITS,
  parseImportText,
  validateImportReports,
  type ImportIssue,
} from "@/lib/data/import-reports";

const content = {
  headline: "3 shipped",
  kpi_status: [],
  shipped: [{ title: "Release" }],
  silent: [],
  slipping: [],
  blockers: [],
};
const entry = (overrides: Record<string, unknown> = {}) => ({
  scope: "org",
  generated_at: "2026-11-21T18:30:00Z",
  report: content,
  ...overrides,
});
const MEMBER = "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f";
const REPORT_ID = "5b0c3a52-8a47-4d43-9a55-0d9d3b1c2e10";

function issuesOf(run: () => unknown): ImportIssue[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return (error as ImportError).issues;
  }
  throw new Error("expected an ImportError");
}

describe("parseImportText", () => {
  it("names the line and column of a JSON syntax error", () => {
    const text = '[\n  {"scope": "org",\n   "generated_at": "2026-11-21T18:30:00Z"\n   "report": {}}\n]\n';
    expect(issuesOf(() => parseImportText(text))).toEqual([
      { path: "", message: "not valid JSON at line 4, column 4: Expected ',' or '}' after property value" },
    ]);
  });

  it("an unterminated file points at its end", () => {
    expect(issuesOf(() => parseImportText('[\n  {"scope": "org"'))).toEqual([
      { path: "", message: "not valid JSON at line 2, column 18: Expected ',' or '}' after property value" },
    ]);
  });

  it("ignores a byte-order mark", () => {
    expect(parseImportText('\uFEFF{"reports": []}')).toEqual({ reports: [] });
  });
});

describe("validateImportReports", () => {
  it("accepts an array or { reports: [...] } and normalises ids and timestamps", () => {
    const file = [
      entry({ id: REPORT_ID.toUpperCase(), generated_at: "2026-11-21T19:30:00.5+01:00" }),
      entry({ scope: "member", scope_target_id: MEMBER }),
    ];
    const expected = [
      {
        place: "reports[0]",
        id: REPORT_ID,
        scope: "org",
        scope_target_id: null,
        generated_at: "2026-11-21T18:30:00.500Z",
        report: content,
      },
      {
        place: "reports[1]",
        scope: "member",
        scope_target_id: MEMBER,
        generated_at: "2026-11-21T18:30:00.000Z",
        report: content,
      },
    ];
    expect(validateImportReports(file)).toEqual(expected);
    expect(validateImportReports({ reports: file })).toEqual(expected);
  });

  it("keeps additional properties of report content", () => {
    const [report] = validateImportReports([entry({ report: { ...content, notes: { mood: "good" } } })]);
    expect(report!.report).toEqual({ ...content, notes: { mood: "good" } });
  });

  it("lists every problem of the file with its JSON path", () => {
    const file = {
      reports: [
        entry(),
        entry({
          scope: "team",
          generated_at: "2026-11-21",
          extra: 1,
          report: { ...content, headline: 3, shipped: "none", silent: [1], blockers: undefined },
        }),
        entry({ scope: "lead" }),
        entry({ scope_target_id: MEMBER }),
        entry({ id: "42", generated_at: "2026-02-30T10:00:00+01:00" }),
        entry({ scope: "member", scope_target_id: "not-a-uuid", generated_at: "2026-11-21T18:30:00" }),
      ],
    };
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      { path: "reports[1].scope", message: 'expected one of "org", "lead", "member"' },
      {
        path: "reports[1].generated_at",
        message: "expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T18:30:00Z",
      },
      { path: "reports[1].report.headline", message: "expected string, received number" },
      { path: "reports[1].report.shipped", message: "expected array, received string" },
      { path: "reports[1].report.silent[0]", message: "expected object, received number" },
      { path: "reports[1].report.blockers", message: "required (expected array)" },
      { path: "reports[1]", message: 'unknown field "extra"' },
      {
        path: "reports[2].scope_target_id",
        message: 'required for scope "lead": the id of a member of the organization',
      },
      { path: "reports[3].scope_target_id", message: 'must be null for scope "org"' },
      { path: "reports[4].id", message: "expected a UUID" },
      {
        path: "reports[4].generated_at",
        message: "expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T18:30:00Z",
      },
      { path: "reports[5].scope_target_id", message: "expected a UUID" },
      {
        path: "reports[5].generated_at",
        message: "expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T18:30:00Z",
      },
    ]);
  });

  it("refuses an id used twice in the file, naming both places", () => {
    const file = [
      entry({ id: REPORT_ID }),
      entry({ generated_at: "2026-11-21T18:31:00Z" }),
      entry({ id: REPORT_ID.toUpperCase(), generated_at: "2026-11-21T18:32:00Z" }),
    ];
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      { path: "reports[2].id", message: "duplicate of reports[0].id" },
    ]);
  });

  it("refuses two reports with one scope, target and instant: one report, sent twice", () => {
    const file = [
      entry({ scope: "member", scope_target_id: MEMBER }),
      entry(),
      entry({ scope: "member", scope_target_id: MEMBER.toUpperCase(), generated_at: "2026-11-21T19:30:00+01:00" }),
      entry({ scope: "lead", scope_target_id: MEMBER }),
    ];
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      {
        path: "reports[2]",
        message: "same scope, scope_target_id and generated_at as reports[0]: one report, sent twice",
      },
    ]);
  });

  it("takes one report alone when asked (the ingest endpoint), naming problems from its own fields", () => {
    expect(validateImportReports(entry(), { single: true })).toEqual([
      { place: "", scope: "org", scope_target_id: null, generated_at: "2026-11-21T18:30:00.000Z", report: content },
    ]);
    expect(issuesOf(() => validateImportReports(entry({ scope: "team" }), { single: true }))).toEqual([
      { path: "scope", message: 'expected one of "org", "lead", "member"' },
    ]);
    expect(issuesOf(() => validateImportReports(entry()))).toEqual([
      { path: "", message: 'expected an array of reports or an object { "reports": [...] }' },
    ]);
  });

  it.each([
    [{ report: [] }, ""],
    [{ reports: [], extra: true }, ""],
    ["reports", ""],
    [null, ""],
    [[], "reports"],
  ])("refuses a file of the wrong shape: %j", (file, path) => {
    const [issue] = issuesOf(() => validateImportReports(file));
    expect(issue!.path).toBe(path);
  });

  it("refuses more reports than one import takes, with a clear message", () => {
    const file = Array.from({ length: IMPORT_LIMITS.maxReports + 1 }, () => entry());
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      { path: "reports", message: "10001 reports is more than 10000 in one import; split the file" },
    ]);
  });

  it("the error message states that nothing was imported and lists at most 20 problems", () => {
    const file = Array.from({ length: 25 }, () => entry({ scope: "team" }));
    const message = (() => {
      try {
        validateImportReports(file);
      } catch (error) {
        return (error as Error).message;
      }
    })()!;
    const lines = message.split("\n");
    expect(lines[0]).toBe("The import file is invalid (25 problems); nothing was imported.");
    expect(lines[1]).toBe('  reports[0].scope: expected one of "org", "lead", "member"');
    expect(lines).toHaveLength(22);
    expect(lines[21]).toBe("  …and 5 more");
  });
});

describe("validateImportReports: content the service could not store or serve", () => {
  /** `{"d":{"d":…}}` with `depth` objects, the innermost holding `bottom`. */
  const nested = (depth: number, bottom: unknown = "end"): unknown => {
    let value = bottom;
    for (let i = 0; i < depth; i++) value = { d: value };
    return value;
  };
  const withExtra = (extra: Record<string, unknown>) => entry({ report: { ...content, ...extra } });

  it("accepts content nested 32 levels deep, counting the report itself", () => {
    expect(() => validateImportReports([withExtra({ notes: nested(31) })])).not.toThrow();
  });

  it("refuses content nested deeper than 32 levels, naming where it goes too deep", () => {
    expect(issuesOf(() => validateImportReports([entry(), withExtra({ notes: nested(32) })]))).toEqual([
      {
        path: `reports[1].report.notes${".d".repeat(31)}`,
        message: "nested more than 32 levels deep (objects and arrays, counting the report itself)",
      },
    ]);
  });

  it("reports nesting 100,000 deep as a problem, without overflowing the stack", () => {
    const file = parseImportText(
      JSON.stringify([entry({ report: "@" })]).replace('"@"', `${"[".repeat(100_000)}${"]".repeat(100_000)}`),
    );
    const issues = issuesOf(() => validateImportReports(file));
    expect(issues.map((i) => i.message)).toEqual([
      "expected object, received array",
      "nested more than 32 levels deep (objects and arrays, counting the report itself)",
    ]);
    expect(issues[1]!.path).toBe(`reports[0].report${"[0]".repeat(32)}`);
  });

  it("refuses U+0000 in strings and in keys, at any depth", () => {
    const file = [
      withExtra({ shipped: [{ title: "a\u0000b" }], notes: { "x\u0000": 1 } }),
      entry({ report: { ...content, headline: "\u0000" } }),
    ];
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      {
        path: "reports[0].report.shipped[0].title",
        message: "contains U+0000 (a NUL character), which the database cannot store",
      },
      {
        path: "reports[0].report.notes",
        message: 'the key "x\\u0000": contains U+0000 (a NUL character), which the database cannot store',
      },
      {
        path: "reports[1].report.headline",
        message: "contains U+0000 (a NUL character), which the database cannot store",
      },
    ]);
  });

  it("refuses lone surrogates in strings and keys, and keeps paired ones (emoji)", () => {
    const lone = "contains a lone UTF-16 surrogate (\\uD800–\\uDFFF without its pair), which is not valid Unicode text";
    const file = [
      withExtra({ a: "x\uD800", b: "\uDC00y", c: "ok \uD83D\uDE80", d: ["\uDE80\uD83D"], e: { "k\uD83D": true } }),
    ];
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      { path: "reports[0].report.a", message: lone },
      { path: "reports[0].report.b", message: lone },
      { path: "reports[0].report.d[0]", message: lone },
      { path: "reports[0].report.e", message: `the key "k\\ud83d": ${lone}` },
    ]);
    expect(() => validateImportReports([withExtra({ rocket: "🚀 shipped" })])).not.toThrow();
  });

  it("bounds string length and array items", () => {
    const file = [
      withExtra({ log: "x".repeat(100_001), fine: "y".repeat(100_000), many: Array.from({ length: 10_001 }, () => 0) }),
    ];
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      { path: "reports[0].report.log", message: "100001 characters is more than 100000 in one string" },
      { path: "reports[0].report.many", message: "10001 items is more than 10000 in one array" },
    ]);
  });

  it.each([
    ["0000-01-01T00:00:00Z"],
    ["1969-12-31T23:59:59.999Z"],
    ["1970-01-01T00:30:00+01:00"],
    ["9999-12-31T23:30:00-01:00"],
  ])("refuses generated_at %s, outside 1970 to 9999 in UTC", (generatedAt) => {
    expect(issuesOf(() => validateImportReports([entry({ generated_at: generatedAt })]))).toEqual([
      {
        path: "reports[0].generated_at",
        message: "must lie between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC)",
      },
    ]);
  });

  it.each([["1970-01-01T00:00:00Z"], ["9999-12-31T23:59:59.999Z"], ["1970-01-01T01:00:00+01:00"]])(
    "accepts generated_at %s",
    (generatedAt) => {
      expect(() => validateImportReports([entry({ generated_at: generatedAt })])).not.toThrow();
    },
  );

  it("lists shape and content problems of one report together", () => {
    const file = [
      entry({
        scope: "team",
        generated_at: "0000-01-01T00:00:00Z",
        report: { ...content, shipped: "none", notes: "\u0000" },
      }),
    ];
    expect(issuesOf(() => validateImportReports(file))).toEqual([
      { path: "reports[0].scope", message: 'expected one of "org", "lead", "member"' },
      {
        path: "reports[0].generated_at",
        message: "must lie between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC)",
      },
      { path: "reports[0].report.shipped", message: "expected array, received string" },
      {
        path: "reports[0].report.notes",
        message: "contains U+0000 (a NUL character), which the database cannot store",
      },
    ]);
  });
});

describe("validateImportReports: invisible characters (issue 34)", () => {
  const withContent = (report: Record<string, unknown>) => entry({ report: { ...content, ...report } });

  it("stores report text without invisible, bidirectional-control and tag characters, in strings and keys", () => {
    const [report] = validateImportReports([
      withContent({
        headline: "Ship\u200bped \u202eit\u202c\u{e0049}\u{e0067}\u{e006e}",
        shipped: [{ "ti\u2060tle": "Release\u00ad 2\u202f\u061c", owner: "Maya 👩‍💻 ❤️" }],
        notes: { deep: ["\u2066x\u2069"] },
      }),
    ]);
    expect(report!.report).toEqual({
      ...content,
      headline: "Shipped it",
      shipped: [{ title: "Release 2\u202f", owner: "Maya 👩‍💻 ❤️" }],
      notes: { deep: ["x"] },
    });
  });

  it("refuses an object whose keys differ only by invisible characters, naming both", () => {
    expect(issuesOf(() => validateImportReports([withContent({ notes: { owner: 1, "own\u200ber": 2 } })]))).toEqual([
      {
        path: "reports[0].report.notes",
        message: 'the keys "owner" and "own\\u200ber" are the same once invisible characters are removed',
      },
    ]);
  });
});

describe("what the import's messages quote (issue 34)", () => {
  it("an unknown field as a bounded excerpt, its bidi and tag characters as escapes", () => {
    const names = ["\u202eevil", "x\u{e0041}", "n".repeat(70), "a", "b", "c", "d"];
    const [issue] = issuesOf(() => validateImportReports([entry(Object.fromEntries(names.map((name) => [name, 1])))]));
    expect(issue).toEqual({
      path: "reports[0]",
      message: `unknown fields "\\u202eevil", "x\\u{e0041}", "${"n".repeat(40)}"…, "a", "b" and 2 more`,
    });
  });

  it("a key in a path as a bounded excerpt", () => {
    const key = `\u202e${"k".repeat(60)}`;
    const [issue] = issuesOf(() => validateImportReports([entry({ report: { ...content, [key]: { a: "\u0000" } } })]));
    expect(issue!.path).toBe(`reports[0].report["\\u202e${"k".repeat(39)}"…].a`);
  });

  it("the text around a JSON syntax error with its bidi characters as escapes", () => {
    const [issue] = issuesOf(() => parseImportText('{"a": \u202eevil}'));
    expect(issue!.message).toContain("\\u202e");
    expect(issue!.message).not.toContain("\u202e");
  });
});
