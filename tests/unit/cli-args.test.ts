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
    // Issue 34: what was typed is quoted as a bounded excerpt, with invisible and bidi characters as escapes.
    ["keys list --org acme \u202eevil", 'sundown keys list: unexpected argument "\\u202eevil"'],
    [
      `keys ${"x".repeat(50)}`,
      `sundown keys: unknown subcommand "${"x".repeat(40)}"…; use one of: create, list, revoke, roll`,
    ],
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
    [
      "webhooks create --org acme --url https://example.com/hook --events report.archived",
      'sundown webhooks create: --events: Unknown event "report.archived"; valid events are report.published, report.updated, report.deleted, member.updated.',
    ],
    // A test delivery is sent on demand (`webhooks ping`), never subscribed to.
    [
      "webhooks create --org acme --url https://example.com/hook --events report.published,ping",
      'sundown webhooks create: --events: Unknown event "ping"; valid events are report.published, report.updated, report.deleted, member.updated.',
    ],
    [
      "webhooks create --org acme --url https://example.com/hook --events ,",
      "sundown webhooks create: --events: choose at least one event",
    ],
    ["webhooks create --org acme --events report.published", "sundown webhooks create: --url is required"],
    ["webhooks create --org acme --url https://example.com/hook", "sundown webhooks create: --events is required"],
    [
      "webhooks create --url https://example.com/hook --events report.published",
      "sundown webhooks create: --org is required",
    ],
    ["webhooks create --org acme --url --events report.published", "sundown webhooks create: --url needs a value"],
    ["webhooks list", "sundown webhooks list: --org is required"],
    ["webhooks list --org acme extra", 'sundown webhooks list: unexpected argument "extra"'],
    ["webhooks disable", "sundown webhooks disable: missing <endpoint-id>"],
    [
      "webhooks disable not-a-uuid",
      'sundown webhooks disable: "not-a-uuid" is not a webhook endpoint id: webhook endpoint ids are UUIDs (see `sundown webhooks list`)',
    ],
    ["webhooks enable 42", 'sundown webhooks enable: "42" is not a webhook endpoint id'],
    ["webhooks delete", "sundown webhooks delete: missing <endpoint-id>"],
    [
      "webhooks delete https://example.com/hook",
      'sundown webhooks delete: "https://example.com/hook" is not a webhook',
    ],
    [
      "webhooks roll-secret 672530d7-171f-4f91-a3c3-bb0b7206d2ec",
      "sundown webhooks roll-secret: --overlap is required",
    ],
    [
      "webhooks roll-secret 672530d7-171f-4f91-a3c3-bb0b7206d2ec --overlap 2h",
      "sundown webhooks roll-secret: --overlap: Choose an overlap: 0, 1h, 24h, 7d.",
    ],
    ["webhooks roll-secret --overlap 1h", "sundown webhooks roll-secret: missing <endpoint-id>"],
    ["webhooks ping", "sundown webhooks ping: missing <endpoint-id>"],
    ["webhooks ping x --json", "sundown webhooks ping: unknown option '--json'"],
    ["webhooks deliveries nope", 'sundown webhooks deliveries: "nope" is not a webhook endpoint id'],
    [
      "webhooks redeliver nope",
      'sundown webhooks redeliver: "nope" is not a delivery id: delivery ids are UUIDs (see `sundown webhooks deliveries <endpoint-id>`)',
    ],
    [
      "webhooks redeliver 672530d7-171f-4f91-a3c3-bb0b7206d2ec 672530d7-171f-4f91-a3c3-bb0b7206d2ed",
      'sundown webhooks redeliver: unexpected argument "672530d7-171f-4f91-a3c3-bb0b7206d2ed"',
    ],
    [
      "webhooks rotate",
      'sundown webhooks: unknown subcommand "rotate"; use one of: create, list, disable, enable, delete, roll-secret, ping, deliveries, redeliver',
    ],
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
    for (const name of ["\u3164", "\u2800", "\u115F", "\u034F", "\uFE0F", "\u0301\u0308"]) {
      expect(create(name)).toThrow(
        "sundown keys create: --name: Use at least one visible character: this name is made only of blank or invisible characters, so it would look empty.",
      );
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
    expect(parse("reports import - --org globex")).toEqual({
      kind: "reports.import",
      org: "globex",
      file: "-",
      replace: false,
      json: false,
    });
    expect(parse("db migrate")).toEqual({ kind: "db.migrate" });
    expect(parse("mcp")).toEqual({ kind: "mcp" });
  });

  it("webhooks: each form builds its command's arguments; ids are lower-cased", () => {
    const ID = "672530D7-171F-4F91-A3C3-BB0B7206D2EC";
    const id = ID.toLowerCase();
    // Repeats and blanks in --events are ignored, as in --scopes; the URL is passed on as typed, for the data
    // layer's check (it resolves the host, which a parser cannot).
    expect(
      parse("webhooks create --org acme --url http://10.0.0.1/hook --events report.published,,report.published --json"),
    ).toEqual({
      kind: "webhooks.create",
      args: { org: "acme", url: "http://10.0.0.1/hook", events: ["report.published"] },
      json: true,
    });
    expect(parse("webhooks list --org globex")).toEqual({
      kind: "webhooks.list",
      args: { org: "globex" },
      json: false,
    });
    expect(parse(`webhooks disable ${ID}`)).toEqual({ kind: "webhooks.disable", args: { endpointId: id } });
    expect(parse(`webhooks enable ${ID}`)).toEqual({ kind: "webhooks.enable", args: { endpointId: id } });
    expect(parse(`webhooks delete ${ID}`)).toEqual({ kind: "webhooks.delete", args: { endpointId: id } });
    expect(parse(`webhooks roll-secret ${ID} --overlap 7d --json`)).toEqual({
      kind: "webhooks.roll-secret",
      args: { endpointId: id, overlap: "7d" },
      json: true,
    });
    expect(parse(`webhooks roll-secret ${ID} --overlap 0`)).toMatchObject({ args: { overlap: "0" }, json: false });
    expect(parse(`webhooks ping ${ID}`)).toEqual({ kind: "webhooks.ping", args: { endpointId: id } });
    expect(parse(`webhooks deliveries ${ID} --json`)).toEqual({
      kind: "webhooks.deliveries",
      args: { endpointId: id },
      json: true,
    });
    expect(parse(`webhooks redeliver ${ID}`)).toEqual({ kind: "webhooks.redeliver", args: { deliveryId: id } });
  });

  it("webhooks help lists every subcommand, and each one's help names its choices", () => {
    const group = parse("webhooks --help");
    expect(group).toMatchObject({ kind: "help", exitCode: 0 });
    for (const sub of [
      "create",
      "list",
      "disable",
      "enable",
      "delete",
      "roll-secret",
      "ping",
      "deliveries",
      "redeliver",
    ]) {
      expect(group.kind === "help" && group.text).toContain(`sundown webhooks ${sub} `);
    }
    const create = parse("webhooks create --help");
    expect(create.kind === "help" && create.text).toContain("--events    comma-separated: report.published");
    const roll = parse("help webhooks roll-secret");
    expect(roll.kind === "help" && roll.text).toContain(
      "Usage: sundown webhooks roll-secret <endpoint-id> --overlap <0|1h|24h|7d> [--json]",
    );
    const ping = parse("webhooks ping --help");
    expect(ping.kind === "help" && ping.text).toContain("the CLI does not.");
    expect(parse("webhooks")).toMatchObject({ kind: "help", exitCode: 2 });
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

describe("webhooks.create arguments crossing to the server", () => {
  it("are checked again by the same events rule", () => {
    const args = (events: unknown) => ({ org: "acme", url: "https://example.com/hook", events });
    expect(commandArgSchemas["webhooks.create"].parse(args(["report.published"])).events).toEqual(["report.published"]);
    expect(commandArgSchemas["webhooks.create"].safeParse(args(["ping"])).success).toBe(false);
    expect(commandArgSchemas["webhooks.create"].safeParse(args([])).success).toBe(false);
    expect(commandArgSchemas["webhooks.redeliver"].safeParse({ deliveryId: "not-a-uuid" }).success).toBe(false);
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
