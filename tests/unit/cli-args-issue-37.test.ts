import { describe, expect, it } from "vitest";
import { parseCommandLine } from "@/cli/args";
import { UsageError } from "@/lib/cli/errors";

// The commands of issue 37 (correcting reports, the organization's time zone, ingest tokens): their names and
// flags are an interface other tools and the docs rely on.

const parse = (line: string) => parseCommandLine(line.split(" ").filter(Boolean));

function usageMessage(line: string): string {
  try {
    parse(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${line}`);
}

const ID = "0F3E5B1C-6A2D-4C8E-9B7A-1D2E3F4A5B6C";

describe("issue 37's commands", () => {
  it("reports import takes --replace and --json", () => {
    expect(parse("reports import day.json --org acme --replace --json")).toEqual({
      kind: "reports.import",
      org: "acme",
      file: "day.json",
      replace: true,
      json: true,
    });
  });

  it("reports delete takes a report id, lower-cased", () => {
    expect(parse(`reports delete ${ID}`)).toEqual({
      kind: "reports.delete",
      args: { reportId: ID.toLowerCase() },
      json: false,
    });
    expect(usageMessage("reports delete yesterday")).toBe(
      'sundown reports delete: "yesterday" is not a report id: report ids are UUIDs (see `GET /api/v1/reports`)\nUsage: sundown reports delete <report-id> [--json]',
    );
    expect(usageMessage("reports delete")).toMatch(/^sundown reports delete: missing <report-id>/);
  });

  it("reports duplicates lists all organizations, or one", () => {
    expect(parse("reports duplicates")).toEqual({ kind: "reports.duplicates", args: {}, json: false });
    expect(parse("reports duplicates --org acme --json")).toEqual({
      kind: "reports.duplicates",
      args: { org: "acme" },
      json: true,
    });
  });

  it("orgs update sets the time zone, checked and made canonical before the database is opened", () => {
    expect(parse("orgs update acme --time-zone US/Pacific")).toEqual({
      kind: "orgs.update",
      args: { org: "acme", timeZone: "America/Los_Angeles" },
      json: false,
    });
    expect(usageMessage("orgs update acme --time-zone Mars/Olympus")).toBe(
      'sundown orgs update: --time-zone: "Mars/Olympus" is not an IANA time zone: use a name such as America/Los_Angeles, Europe/Berlin or UTC.\nUsage: sundown orgs update <slug|id> --time-zone <IANA name> [--json]',
    );
    expect(usageMessage("orgs update acme")).toMatch(/^sundown orgs update: --time-zone is required/);
  });

  it("ingest-tokens create, list, roll and revoke", () => {
    expect(parse("ingest-tokens create --org acme --name standup-bot --json")).toEqual({
      kind: "ingest-tokens.create",
      args: { org: "acme", name: "standup-bot" },
      json: true,
    });
    expect(parse("ingest-tokens list --org acme")).toEqual({
      kind: "ingest-tokens.list",
      args: { org: "acme" },
      json: false,
    });
    expect(parse(`ingest-tokens roll ${ID}`)).toEqual({
      kind: "ingest-tokens.roll",
      args: { tokenId: ID.toLowerCase(), overlap: "0" },
      json: false,
    });
    expect(parse(`ingest-tokens roll ${ID} --overlap 24h --json`)).toMatchObject({
      args: { overlap: "24h" },
      json: true,
    });
    expect(parse(`ingest-tokens revoke ${ID}`)).toEqual({
      kind: "ingest-tokens.revoke",
      args: { tokenId: ID.toLowerCase() },
    });
    expect(usageMessage("ingest-tokens create --org acme --name  ")).toMatch(/--name/);
    expect(usageMessage("ingest-tokens roll x")).toMatch(
      /"x" is not an ingest token id: ingest token ids are UUIDs \(see `sundown ingest-tokens list`\)/,
    );
    expect(usageMessage("ingest-tokens mint")).toBe(
      'sundown ingest-tokens: unknown subcommand "mint"; use one of: create, list, roll, revoke',
    );
  });

  it("lists the new commands in the help", () => {
    const help = parseCommandLine(["--help"]);
    expect(help.kind === "help" && help.text).toEqual(
      expect.stringMatching(/reports delete[\s\S]*reports duplicates[\s\S]*orgs update[\s\S]*ingest-tokens create/),
    );
  });
});
