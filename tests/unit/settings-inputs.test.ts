import { describe, expect, it } from "vitest";
import type { SessionUser } from "@/lib/data/users";
import { parseCommandLine } from "@/cli/args";
import { keyExpirySchema, minExpiryDate } from "@/lib/schemas/key-expiry";
import { createKey } from "@/lib/settings/api-key-actions";
import { createApiKeyInput, createFormFields, revokeApiKeyInput } from "@/lib/settings/api-key-inputs";
import { requireSectionAccess, SectionAccessRefused } from "@/lib/settings/section-access";
import { callbackUrlOn, DEFAULT_AFTER_SIGN_IN, safeCallbackPath, signInPath } from "@/lib/session/callback-path";
import { signInErrorMessage } from "@/lib/session/sign-in-errors";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const IN_90_DAYS = "2027-02-20T12:00:00.000Z";

const SESSION_USER: SessionUser = {
  userId: "u",
  email: "e@example.com",
  memberId: "m",
  name: "N",
  role: "member",
  organization: { id: "o", slug: "s", name: "Org" },
};

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

const parse = (entries: [string, string][]) => createApiKeyInput(NOW).safeParse(createFormFields(form(entries)));

function fieldMessages(entries: [string, string][]) {
  const result = parse(entries);
  if (result.success) throw new Error("expected a refusal");
  return Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe("create key input", () => {
  it("accepts a trimmed name, scopes (deduplicated) and never as the expiry", () => {
    const result = parse([
      ["name", "  Digest agent "],
      ["scopes", "reports:read"],
      ["scopes", "reports:read"],
      ["expiry", "never"],
      ["expiresAt", ""],
    ]);
    expect(result.success && result.data).toEqual({ name: "Digest agent", scopes: ["reports:read"], expiresAt: null });
  });

  it("accepts both scopes (listed in SCOPES order) and a future date, expiring at 00:00 UTC that day", () => {
    const result = parse([
      ["name", "x"],
      ["scopes", "team:read"],
      ["scopes", "reports:read"],
      ["expiresAt", "2026-11-23"],
    ]);
    expect(result.success && result.data.expiresAt?.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(result.success && result.data.scopes).toEqual(["reports:read", "team:read"]);
  });

  it("accepts 64 characters and refuses 65", () => {
    expect(
      parse([
        ["name", "a".repeat(64)],
        ["scopes", "team:read"],
      ]).success,
    ).toBe(true);
    expect(
      fieldMessages([
        ["name", "a".repeat(65)],
        ["scopes", "team:read"],
      ]),
    ).toEqual({ name: "Use at most 64 characters." });
  });

  it.each([
    ["missing", [] as [string, string][]],
    ["empty", [["name", ""]] as [string, string][]],
    ["blank", [["name", "   "]] as [string, string][]],
  ])("refuses a %s name", (_label, name) => {
    expect(fieldMessages([...name, ["scopes", "team:read"]])).toEqual({ name: "Enter a name for the key." });
  });

  it.each([
    ["ESC/CSI (clear screen)", "agent\u001b[2J"],
    ["OSC (window title)", "\u001b]0;pwned\u0007agent"],
    ["C1 CSI", "agent\u009b31m"],
    ["DEL", "agent\u007f"],
    ["a newline inside", "line\nbreak"],
    ["a bidi override", "invoice\u202Etxt.exe"],
    ["a bidi isolate", "a\u2066b\u2069"],
    ["a line separator", "a\u2028b"],
    ["a paragraph separator", "a\u2029b"],
    // Invisible format characters (Unicode Cf), so two keys cannot look alike.
    ["an Arabic letter mark", "agent\u061C"],
    ["a soft hyphen", "dig\u00ADest"],
    ["a byte order mark", "dig\uFEFFest"],
    ["a zero-width space", "dig\u200Best"],
    ["a zero-width non-joiner", "dig\u200Cest"],
    ["a zero-width joiner outside an emoji", "dig\u200Dest"],
    ["a left-to-right mark", "digest\u200E"],
    ["a right-to-left mark", "digest\u200F"],
  ])("refuses a name with %s, saying why", (_label, name) => {
    expect(
      fieldMessages([
        ["name", name],
        ["scopes", "team:read"],
      ]),
    ).toEqual({
      name: "Use printable characters only: no control characters, text-direction overrides, invisible characters or line separators.",
    });
  });

  it.each([
    ["U+3164 HANGUL FILLER", "\u3164"],
    ["U+3164 three times", "\u3164\u3164\u3164"],
    ["U+2800 BRAILLE PATTERN BLANK", "\u2800\u2800"],
    ["U+115F HANGUL CHOSEONG FILLER", "\u115F"],
    ["U+1160 HANGUL JUNGSEONG FILLER", "\u1160"],
    ["U+FFA0 HALFWIDTH HANGUL FILLER", "\uFFA0"],
    ["U+034F COMBINING GRAPHEME JOINER", "\u034F"],
    ["a lone U+FE0F VARIATION SELECTOR-16", "\uFE0F"],
    ["combining marks only", "\u0301\u0308\u0327"],
    ["a Khmer inherent vowel", "\u17B4"],
    ["U+1D159 MUSICAL SYMBOL NULL NOTEHEAD", "\u{1D159}"],
    ["spaces of other widths between fillers", "\u3164\u00A0\u3000\u2800"],
    ["a private-use character", "\uE000"],
  ])("refuses a name made only of %s, saying it would look empty", (_label, name) => {
    expect(
      fieldMessages([
        ["name", name],
        ["scopes", "team:read"],
      ]),
    ).toEqual({
      name: "Use at least one visible character: this name is made only of blank or invisible characters, so it would look empty.",
    });
  });

  it.each([
    ["accents", "Café Añejo — digest"],
    ["an accent written as a combining mark", "Cafe\u0301"],
    ["an emoji with its variation selector", "\u2764\uFE0F"],
    ["a filler beside a letter", "\u3164a"],
    ["emoji with ZWJ", "👩‍💻 agent"],
    ["a flag built with ZWJ and a variation selector", "🏳️‍🌈 digest"],
    ["CJK", "日報エージェント"],
    ["Hebrew", "סוכן דוחות"],
  ])("accepts a name with %s", (_label, name) => {
    expect(
      parse([
        ["name", name],
        ["scopes", "team:read"],
      ]),
    ).toMatchObject({ success: true, data: { name } });
  });

  it("refuses no scope and an unknown scope", () => {
    expect(fieldMessages([["name", "x"]])).toEqual({ scopes: "Choose at least one scope: reports:read, team:read." });
    expect(
      fieldMessages([
        ["name", "x"],
        ["scopes", "admin:write"],
      ]),
    ).toEqual({
      scopes: 'Unknown scope "admin:write"; valid scopes are reports:read, team:read.',
    });
  });

  it("refuses a repeated name field", () => {
    expect(
      Object.keys(
        fieldMessages([
          ["name", "a"],
          ["name", "b"],
          ["scopes", "team:read"],
        ]),
      ),
    ).toEqual(["name"]);
  });

  it.each(["2026-11-22", "2025-01-01", "1970-01-01", "2026-11-22T11:59:59Z", "0d"])(
    "refuses %s: not in the future",
    (date) => {
      expect(
        fieldMessages([
          ["name", "x"],
          ["scopes", "team:read"],
          ["expiresAt", date],
        ]),
      ).toEqual({
        expiresAt: "Choose a time in the future (a date alone means 00:00 UTC that day).",
      });
    },
  );

  it.each(["2026-02-30", "27-01-01", "2027-1-1", "tomorrow", "2027-01-01T00:00:00", "30 days"])(
    "refuses %s: not a date",
    (date) => {
      expect(
        fieldMessages([
          ["name", "x"],
          ["scopes", "team:read"],
          ["expiresAt", date],
        ]),
      ).toEqual({
        expiresAt:
          "Enter a date as YYYY-MM-DD, a time with its zone such as 2026-12-31T18:00:00Z, or a number of days such as 30d.",
      });
    },
  );

  it("offers tomorrow (UTC) as the earliest expiry, the first date the rule accepts", () => {
    expect(minExpiryDate(NOW)).toBe("2026-11-23");
    expect(minExpiryDate(new Date("2026-12-31T23:59:59.999Z"))).toBe("2027-01-01");
    expect(keyExpirySchema(NOW).safeParse(minExpiryDate(NOW)).success).toBe(true);
    expect(keyExpirySchema(NOW).safeParse("2026-11-22").success).toBe(false);
  });

  it("an expiry date means 00:00 UTC that day; leap days only in leap years", () => {
    expect(keyExpirySchema(NOW).parse("2028-02-29")?.toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(keyExpirySchema(NOW).safeParse("2027-02-29").success).toBe(false);
  });
});

describe("scopes and expiry: one rule for the settings form and the CLI", () => {
  const founder: SessionUser = { ...SESSION_USER, role: "founder" };
  type Answer = { scopes: string[]; expiresAt: string | null } | { field: "scopes" | "expiresAt"; message: string };

  /** The settings action's answer: its field error when it refuses, else what it would create. */
  async function formAnswer(scopes: string[], expires: string | undefined): Promise<Answer> {
    const data = form([
      ["name", "x"],
      ...scopes.map((s): [string, string] => ["scopes", s]),
      // As the page sends them: "Never", or "On a date…" with the date field.
      ...((expires === undefined
        ? []
        : expires === "never"
          ? [["expiry", "never"]]
          : [
              ["expiry", "date"],
              ["expiresAt", expires],
            ]) as [string, string][]),
    ]);
    const parsed = createApiKeyInput(NOW).safeParse(createFormFields(data));
    if (parsed.success) return { scopes: parsed.data.scopes, expiresAt: parsed.data.expiresAt?.toISOString() ?? null };
    // A refusal returns before anything touches the database: the action itself answers here.
    const state = await createKey.forUser(founder, data, NOW);
    if (state.status !== "error") throw new Error(`expected a refusal, got ${state.status}`);
    const [[field, message]] = Object.entries(state.fieldErrors) as [["scopes" | "expiresAt", string]];
    return { field, message };
  }

  /** The CLI's answer for the same input: its arguments, or its usage error without the command and flag. */
  function cliAnswer(scopes: string[], expires: string | undefined): Answer {
    const argv = [
      "keys",
      "create",
      "--org",
      "acme",
      "--name",
      "x",
      "--scopes",
      scopes.join(","),
      ...(expires === undefined ? [] : ["--expires", expires]),
    ];
    try {
      const invocation = parseCommandLine(argv, NOW);
      if (invocation.kind !== "keys.create") throw new Error(`unexpected ${invocation.kind}`);
      return { scopes: invocation.args.scopes, expiresAt: invocation.args.expiresAt };
    } catch (error) {
      const match = /^sundown keys create: --(scopes|expires): (.*)$/m.exec((error as Error).message);
      if (!match) throw error;
      return { field: match[1] === "scopes" ? "scopes" : "expiresAt", message: match[2]! };
    }
  }

  it.each([
    [["team:read", "reports:read", "team:read"], { scopes: ["reports:read", "team:read"], expiresAt: IN_90_DAYS }],
    [[" reports:read "], { scopes: ["reports:read"], expiresAt: IN_90_DAYS }],
    [[], { field: "scopes", message: "Choose at least one scope: reports:read, team:read." }],
    [["", " "], { field: "scopes", message: "Choose at least one scope: reports:read, team:read." }],
    [
      ["admin:write"],
      { field: "scopes", message: 'Unknown scope "admin:write"; valid scopes are reports:read, team:read.' },
    ],
    [
      ["reports:read", "Team:Read", "x"],
      { field: "scopes", message: 'Unknown scope "Team:Read", "x"; valid scopes are reports:read, team:read.' },
    ],
  ] as [string[], Answer][])("scopes %j: the same answer on both", async (scopes, expected) => {
    expect(await formAnswer(scopes, undefined)).toEqual(expected);
    expect(cliAnswer(scopes, undefined)).toEqual(expected);
  });

  const notATime =
    "Enter a date as YYYY-MM-DD, a time with its zone such as 2026-12-31T18:00:00Z, or a number of days such as 30d.";
  const notInFuture = "Choose a time in the future (a date alone means 00:00 UTC that day).";
  it.each([
    ["2026-12-31", { scopes: ["team:read"], expiresAt: "2026-12-31T00:00:00.000Z" }],
    ["2026-11-23", { scopes: ["team:read"], expiresAt: "2026-11-23T00:00:00.000Z" }],
    ["2026-12-31T18:00:00+01:00", { scopes: ["team:read"], expiresAt: "2026-12-31T17:00:00.000Z" }],
    ["30d", { scopes: ["team:read"], expiresAt: "2026-12-22T12:00:00.000Z" }],
    [" 1d ", { scopes: ["team:read"], expiresAt: "2026-11-23T12:00:00.000Z" }],
    ["2026-11-22", { field: "expiresAt", message: notInFuture }],
    ["2026-11-22T12:00:00Z", { field: "expiresAt", message: notInFuture }],
    ["0d", { field: "expiresAt", message: notInFuture }],
    ["2026-02-30", { field: "expiresAt", message: notATime }],
    ["2026-12-31T18:00:00", { field: "expiresAt", message: notATime }],
    ["tomorrow", { field: "expiresAt", message: notATime }],
    ["30", { field: "expiresAt", message: notATime }],
  ] as [string, Answer][])("expiry %j: the same answer on both", async (expires, expected) => {
    expect(await formAnswer(["team:read"], expires)).toEqual(expected);
    expect(cliAnswer(["team:read"], expires)).toEqual(expected);
  });

  it("no expiry chosen: both take 90 days; never: both make a key that does not expire; an empty date: both refuse", async () => {
    expect(await formAnswer(["team:read"], undefined)).toEqual({ scopes: ["team:read"], expiresAt: IN_90_DAYS });
    expect(cliAnswer(["team:read"], undefined)).toEqual({ scopes: ["team:read"], expiresAt: IN_90_DAYS });
    expect(await formAnswer(["team:read"], "never")).toEqual({ scopes: ["team:read"], expiresAt: null });
    expect(cliAnswer(["team:read"], "never")).toEqual({ scopes: ["team:read"], expiresAt: null });
    const noDate = { field: "expiresAt", message: "Choose a date, or choose never for a key that does not expire." };
    expect(await formAnswer(["team:read"], "")).toEqual(noDate);
    expect(cliAnswer(["team:read"], "")).toEqual(noDate);
  });
});

describe("revoke key input", () => {
  it("takes a UUID and nothing else", () => {
    expect(revokeApiKeyInput.safeParse({ keyId: "0B9E3F5C-8A1D-4E2B-9C3F-1A2B3C4D5E6F" }).data).toEqual({
      keyId: "0b9e3f5c-8a1d-4e2b-9c3f-1a2b3c4d5e6f",
    });
    for (const keyId of ["", "1", "not-a-uuid", null, undefined, "' OR 1=1 --"]) {
      expect(revokeApiKeyInput.safeParse({ keyId }).success).toBe(false);
    }
  });
});

describe("callback path after sign-in", () => {
  it.each(["/settings/api-keys", "/docs", "/settings/api-keys?x=1#top"])("keeps the local path %s", (path) => {
    expect(safeCallbackPath(path)).toBe(path);
  });

  it.each([
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "http:/x",
    "javascript:alert(1)",
    "/settings\\..\\x",
    "/a\nb",
    "/signin?callbackUrl=/signin",
    "/api/v1/me",
    "",
    undefined,
    ["/docs"],
  ])("falls back for %j", (value) => {
    expect(safeCallbackPath(value)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it("builds the sign-in URL that comes back", () => {
    expect(signInPath("/settings/api-keys")).toBe("/signin?callbackUrl=%2Fsettings%2Fapi-keys");
  });
});

describe("sign-in messages", () => {
  it("says plainly what went wrong", () => {
    expect(signInErrorMessage("CredentialsSignin")).toBe("Wrong email or password. Check both and try again.");
    expect(signInErrorMessage("RateLimited")).toMatch(/^Too many sign-in attempts/);
    expect(signInErrorMessage("anything else")).toBe("Sign-in failed. Try again.");
  });
});

describe("the settings section guard, on API keys", () => {
  it("lets founders and leads through", () => {
    expect(requireSectionAccess({ ...SESSION_USER, role: "founder" }, "api-keys").role).toBe("founder");
    expect(requireSectionAccess({ ...SESSION_USER, role: "lead" }, "api-keys").role).toBe("lead");
  });

  it("refuses members and signed-out callers with different reasons", () => {
    expect(() => requireSectionAccess({ ...SESSION_USER, role: "member" }, "api-keys")).toThrow(
      expect.objectContaining({ reason: "forbidden", message: "Only founders and leads can manage API keys." }),
    );
    expect(() => requireSectionAccess(null, "api-keys")).toThrow(SectionAccessRefused);
    expect(() => requireSectionAccess(null, "api-keys")).toThrow(expect.objectContaining({ reason: "signed_out" }));
  });
});

describe("next-auth redirects", () => {
  const BASE = "https://sundown.example.com";

  it.each([
    ["/", `${BASE}/`],
    ["/settings/api-keys?tab=1#x", `${BASE}/settings/api-keys?tab=1#x`],
    [`${BASE}/docs`, `${BASE}/docs`],
    ["http://evil.example/phish", `${BASE}${DEFAULT_AFTER_SIGN_IN}`],
    ["//evil.example/phish", `${BASE}${DEFAULT_AFTER_SIGN_IN}`],
    ["https://sundown.example.com.evil.example/", `${BASE}${DEFAULT_AFTER_SIGN_IN}`],
    ["http://sundown.example.com/docs", `${BASE}${DEFAULT_AFTER_SIGN_IN}`],
    ["javascript:alert(1)", `${BASE}${DEFAULT_AFTER_SIGN_IN}`],
    ["not a url", `${BASE}${DEFAULT_AFTER_SIGN_IN}`],
  ])("%s → %s", (url, expected) => {
    expect(callbackUrlOn(BASE, url)).toBe(expected);
  });
});
