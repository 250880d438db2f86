import { describe, expect, it } from "vitest";
import { parseCommandLine } from "@/cli/args";
import { UsageError } from "@/lib/cli/errors";

// `sundown updates import` (issue 38): its verb and flags are an interface other tools and the docs rely on.

function usageMessage(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${argv.join(" ")}`);
}

describe("updates import", () => {
  it("takes a file (or - for stdin), --org, --dry-run and --json", () => {
    expect(parseCommandLine(["updates", "import", "week.csv", "--org", "acme"])).toEqual({
      kind: "updates.import",
      org: "acme",
      file: "week.csv",
      dryRun: false,
      json: false,
    });
    expect(parseCommandLine(["updates", "import", "-", "--org", "acme", "--dry-run", "--json"])).toEqual({
      kind: "updates.import",
      org: "acme",
      file: "-",
      dryRun: true,
      json: true,
    });
  });

  it("refuses a missing file or --org, and flags it does not take", () => {
    expect(usageMessage(["updates", "import", "--org", "acme"])).toMatch(/^sundown updates import: missing <file>/);
    expect(usageMessage(["updates", "import", "week.csv"])).toMatch(/^sundown updates import: --org is required/);
    expect(usageMessage(["updates", "import", "week.csv", "--org", "acme", "--replace"])).toMatch(
      /^sundown updates import: unknown option '--replace'/,
    );
    expect(usageMessage(["updates", "export"])).toBe(
      'sundown updates: unknown subcommand "export"; use one of: import',
    );
  });

  it("documents the CSV header and sections in its help", () => {
    const help = parseCommandLine(["updates", "import", "--help"]);
    expect(help).toMatchObject({ kind: "help", exitCode: 0 });
    const text = (help as { text: string }).text;
    expect(text).toContain("date,email,section,text");
    expect(text).toContain("shipped, slipping, blocker, kpi or note, or away");
  });
});
