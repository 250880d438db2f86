import type { CommandResult } from "@/lib/cli/commands";
import type { Invocation } from "./args";
import type { Output } from "./output";
import { printableJson, printableStrings } from "./printable";

// `sundown reports generate`: what generating the day did, per scope.

type GenerateResult = CommandResult<"reports.generate">;

const SCOPES = ["member", "lead", "org"] as const;
const OUTCOMES = ["added", "replaced", "unchanged", "deleted"] as const;

function counts(result: GenerateResult) {
  return Object.fromEntries(
    SCOPES.map((scope) => [
      scope,
      Object.fromEntries(
        OUTCOMES.map((outcome) => [
          outcome,
          result.reports.filter((r) => r.scope === scope && r.outcome === outcome).length,
        ]),
      ),
    ]),
  ) as Record<(typeof SCOPES)[number], Record<(typeof OUTCOMES)[number], number>>;
}

function generateJson(result: GenerateResult): string {
  const { organization, day, generated_at, reports } = result;
  return printableJson({
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
    day,
    generated_at,
    counts: counts(result),
    reports,
  });
}

function formatGenerate(result: GenerateResult): string {
  const { organization, day, generated_at } = result;
  const byScope = counts(result);
  const lines = SCOPES.map((scope) => {
    const c = byScope[scope];
    return `  ${scope.padEnd(7)} ${c.added} added, ${c.replaced} replaced, ${c.unchanged} unchanged, ${c.deleted} deleted`;
  });
  const none = result.reports.length === 0 ? ["  No reports: nobody wrote that day and it is not a working day."] : [];
  return [
    `Generated ${day} for ${organization.name} (${organization.slug}), as of its cutoff ${generated_at}:`,
    ...lines,
    ...none,
  ].join("\n");
}

export async function runGenerate(
  invocation: Extract<Invocation, { kind: "reports.generate" }>,
  executeCommand: typeof import("@/lib/cli/execute").executeCommand,
): Promise<Output> {
  const result = await executeCommand("reports.generate", invocation.args);
  return { stdout: invocation.json ? generateJson(result) : formatGenerate(printableStrings(result)) };
}
