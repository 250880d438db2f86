import { describe, expect, it } from "vitest";
import { parseCommandLine } from "@/cli/args";
import { commandArgSchemas, parseExpiry } from "@/lib/cli/command-args";
import { UsageError } from "@/lib/cli/errors";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const parse = (line: string) => parseCommandLine(line.split(" ").filter(Boolean), NOW);

function usageMessage(line: string): string {
  try {
    parse(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${line}`);
}

describe("sundown command line", () => {
  it("keys create: builds the command's arguments, scopes sorted and de-duplicated", () => {
    expect(parse("keys create --org acme --name nightly --scopes team:read,reports:read,team:read --json")).toEqual({
      kind: "keys.create",
      // Without --expires, 90 days: the settings page's preselected choice.
      args: {
        org: "acme",
        name: "nightly",
        scopes: ["reports:read", "team:read"],
        expiresAt: "2027-02-20T12:00:00.000Z",
      },
      json: true,
    });
  });

  it("keys create: --expires accepts a date, a timestamp with a zone, and days from now", () => {
    const expiry = (value: string) => {
      const invocation = parse(`keys create --org acme --name x --scopes reports:read --expires ${value}`);
      return invocation.kind === "keys.create" ? invocation.args.expiresAt : undefined;
    };
    expect(expiry("2026-12-31")).toBe("2026-12-31T00:00:00.000Z");
    expect(expiry("2026-12-31T18:00:00+01:00")).toBe("2026-12-31T17:00:00.000Z");
    expect(expiry("30d")).toBe("2026-12-22T12:00:00.000Z");
  });

  it.each([
    [
      "keys create --org acme --name x --scopes reports:write",
      'sundown keys create: --scopes: Unknown scope "reports:write"; valid scopes are reports:read, team:read.',
    ],
    [
      "keys create --org acme --name x --scopes ,",
      "sundown keys create: --scopes: Choose at least one scope: reports:read, team:read.",
    ],
    ["keys create --org acme --name x", "sundown keys create: --scopes is required"],
    ["keys create --name x --scopes reports:read", "sundown keys create: --org is required"],
    ["keys create --org acme --scopes reports:read", "sundown keys create: --name is required"],
    [
      "keys create --org acme --name x --scopes reports:read --expires 2026-02-30",
      "sundown keys create: --expires: Enter a date as YYYY-MM-DD,",
    ],
    [
      "keys create --org acme --name x --scopes reports:read --expires tomorrow",
      "sundown keys create: --expires: Enter a date as YYYY-MM-DD,",
    ],
    [
      "keys create --org acme --name x --scopes reports:read --expires 2026-11-21",
      "sundown keys create: --expires: Choose a time in the future",
    ],
    [
      "keys create --org acme --name x --scopes reports:read --expires 0d",
      "sundown keys create: --expires: Choose a time in the future",
    ],
    ["keys create --org acme --name x --scopes reports:read --nme y", "sundown keys create: unknown option '--nme'"],
    [
      "keys create --org acme --org globex --name x --scopes reports:read",
      "sundown keys create: --org is given more than once",
    ],
    ["keys create --org --name x --scopes reports:read", "sundown keys create: --org needs a value"],
    ["keys create --org acme --name x --scopes reports:read extra", 'sundown keys create: unexpected argument "extra"'],
    ["keys list", "sundown keys list: --org is required"],
    ["keys list --org acme --json=yes", "sundown keys list: option '--json' does not take an argument"],
    ["keys revoke", "sundown keys revoke: missing <key-id>"],
    ["keys revoke not-a-uuid", 'sundown keys revoke: "not-a-uuid" is not a key id'],
    ["keys rotate", 'sundown keys: unknown subcommand "rotate"; use one of: create, list, revoke, roll'],
    ["keys roll 672530d7-171f-4f91-a3c3-bb0b7206d2ec", "sundown keys roll: --overlap is required"],
    [
      "keys roll 672530d7-171f-4f91-a3c3-bb0b7206d2ec --overlap 2h",
      "sundown keys roll: --overlap: Choose an overlap: 0, 1h, 24h, 7d.",
    ],
    ["keys roll --overlap 1h", "sundown keys roll: missing <key-id>"],
    ["keys roll not-a-uuid --overlap 1h", 'sundown keys roll: "not-a-uuid" is not a key id'],
    ["seed", "sundown seed: only demo data can be seeded; run `sundown seed --demo`"],
    ["reports import --org acme", "sundown reports import: missing <file>"],
    ["reports import data.json", "sundown reports import: --org is required"],
    ["frobnicate", 'unknown command "frobnicate". Run `sundown --help` for the list.'],
  ])("%s → usage error", (line, message) => {
    expect(usageMessage(line).startsWith(message)).toBe(true);
  });

  it("keys create --name follows the settings form's rule and message", () => {
    const create = (name: string) => () =>
      parseCommandLine(["keys", "create", "--org", "acme", "--name", name, "--scopes", "team:read"], NOW);
    const printableOnly =
      "Use printable characters only: no control characters, text-direction overrides, invisible characters or line separators.";
    for (const name of [
      "\u001b]0;pwned\u0007agent",
      "agent\u001b[2J",
      "agent\u009b31m",
      "invoice\u202Etxt.exe",
      "a\u2028b",
    ]) {
      expect(create(name)).toThrow(`sundown keys create: --name: ${printableOnly}`);
    }
    expect(create("a".repeat(65))).toThrow("sundown keys create: --name: Use at most 64 characters.");
    expect(create("   ")).toThrow("sundown keys create: --name: Enter a name for the key.");
    expect(create("a".repeat(64))()).toMatchObject({ args: { name: "a".repeat(64) } });
    expect(create(" 👩‍💻 Café ")()).toMatchObject({ args: { name: "👩‍💻 Café" } });
  });

  it("a usage error from a command's flags ends with that command's usage line", () => {
    expect(usageMessage("keys list --org")).toBe(
      "sundown keys list: --org needs a value\nUsage: sundown keys list --org <slug|id> [--json]",
    );
  });

  it("the other commands", () => {
    expect(parse("keys list --org acme")).toEqual({ kind: "keys.list", args: { org: "acme" }, json: false });
    expect(parse("keys revoke 672530D7-171F-4F91-A3C3-BB0B7206D2EC")).toEqual({
      kind: "keys.revoke",
      args: { keyId: "672530d7-171f-4f91-a3c3-bb0b7206d2ec" },
    });
    expect(parse("keys roll 672530D7-171F-4F91-A3C3-BB0B7206D2EC --overlap 24h --json")).toEqual({
      kind: "keys.roll",
      args: { keyId: "672530d7-171f-4f91-a3c3-bb0b7206d2ec", overlap: "24h" },
      json: true,
    });
    expect(parse("keys roll 672530d7-171f-4f91-a3c3-bb0b7206d2ec --overlap 0")).toMatchObject({
      args: { overlap: "0" },
      json: false,
    });
    expect(parse("orgs list --json")).toEqual({ kind: "orgs.list", json: true });
    expect(parse("seed --demo")).toEqual({ kind: "seed.demo" });
    expect(parse("reports import - --org globex")).toEqual({ kind: "reports.import", org: "globex", file: "-" });
    expect(parse("db migrate")).toEqual({ kind: "db.migrate" });
    expect(parse("mcp")).toEqual({ kind: "mcp" });
  });

  it("help: general and per command, exit 0; no arguments prints help with exit 2", () => {
    const general = parse("--help");
    expect(general).toMatchObject({ kind: "help", exitCode: 0 });
    expect(general.kind === "help" && general.text).toContain("keys create");
    expect(parse("")).toMatchObject({ kind: "help", exitCode: 2 });
    const command = parse("keys create --org acme --help");
    expect(command).toMatchObject({ kind: "help", exitCode: 0 });
    expect(command.kind === "help" && command.text).toContain("Usage: sundown keys create --org <slug|id>");
    expect(parse("help reports import")).toMatchObject({ kind: "help", exitCode: 0 });
    expect(parse("keys --help")).toMatchObject({ kind: "help", exitCode: 0 });
    expect(parse("keys")).toMatchObject({ kind: "help", exitCode: 2 });
  });
});

describe("parseExpiry", () => {
  it("a date means 00:00 UTC that day; leap days only in leap years", () => {
    expect(parseExpiry("2028-02-29", NOW)?.toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(() => parseExpiry("2027-02-29", NOW)).toThrow(UsageError);
  });

  it("left out, 90 days as the settings page preselects; `never` for a key that does not expire", () => {
    expect(parseExpiry(undefined, NOW)?.toISOString()).toBe(new Date(NOW.getTime() + 90 * 86_400_000).toISOString());
    expect(parseExpiry("never", NOW)).toBeNull();
    expect(() => parseExpiry("", NOW)).toThrow("--expires: Choose a date, or choose never");
  });

  it("a timestamp needs a time zone, so it cannot mean different instants on different machines", () => {
    expect(() => parseExpiry("2026-12-31T18:00:00", NOW)).toThrow("--expires: Enter a date as YYYY-MM-DD,");
  });
});

describe("keys.create arguments crossing to the server", () => {
  const args = (scopes: unknown) => ({ org: "acme", name: "x", scopes, expiresAt: null });

  it("are checked again by the same scopes rule, with the same message", () => {
    expect(commandArgSchemas["keys.create"].parse(args(["team:read", "reports:read"])).scopes).toEqual([
      "reports:read",
      "team:read",
    ]);
    const refused = commandArgSchemas["keys.create"].safeParse(args(["admin"]));
    expect(refused.error?.issues.map((i) => i.message)).toEqual([
      'Unknown scope "admin"; valid scopes are reports:read, team:read.',
    ]);
  });
});
