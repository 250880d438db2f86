import { describe, expect, it } from "vitest";
import { escapeNonPrintable, printableJson, printableStrings } from "@/cli/printable";

// Anything a terminal acts on rather than prints: C0/C1 controls, bidi overrides and isolates, separators.
const HOSTILE = "\u001b]0;pwned\u0007name\u001b[2J\u009b31m\u202Etxt.exe\u2066\u2028\u200B\u{E0001}";
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\u200b\u{E0001}]/u;

describe("CLI output of values from the database", () => {
  it("escapes every non-printable character readably, and leaves names people write alone", () => {
    expect(escapeNonPrintable(HOSTILE)).toBe(
      "\\x1b]0;pwned\\x07name\\x1b[2J\\x9b31m\\u202etxt.exe\\u2066\\u2028\\u200b\\u{e0001}",
    );
    for (const name of ["Café Añejo — digest", "👩‍💻 agent", "日報エージェント", "סוכן דוחות", "tabs\\tare text"]) {
      expect(escapeNonPrintable(name)).toBe(name);
    }
  });

  it("escapes strings throughout a result, keeping its shape", () => {
    const result = {
      keys: [{ name: "a\u001bb", scopes: ["team:read"], last_used_at: null, count: 2 }],
      organization: { name: "\u202Eevil" },
    };
    expect(printableStrings(result)).toEqual({
      keys: [{ name: "a\\x1bb", scopes: ["team:read"], last_used_at: null, count: 2 }],
      organization: { name: "\\u202eevil" },
    });
  });

  it("--json keeps the exact values but writes none of them raw", () => {
    const value = [{ name: HOSTILE, org: "👩‍💻" }];
    const json = printableJson(value, 2);
    // Newlines outside strings are indentation; inside strings JSON has them escaped.
    expect(json.replaceAll("\n", "")).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(value);
  });
});
