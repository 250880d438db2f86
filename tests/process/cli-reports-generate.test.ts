import { beforeAll, describe, expect, it } from "vitest";
import { closeDb, installDbHandle, openEmbedded } from "@/lib/db";
import { seedDemoOnFirstStart } from "@/lib/demo/first-start";
import { writeUpdates } from "@/lib/data/updates";
import { operatorEnv, runCli } from "../helpers/cli";
import { tempDataDir } from "../helpers/server";

// `sundown reports generate --org <slug> --date <YYYY-MM-DD>` as an operator runs it, on an embedded database where
// two of acme's people wrote on Wednesday 4 November 2026: it generates the day, says what it did per scope, and
// generating it again changes nothing.

const dataDir = tempDataDir();
const sundown = (args: string[]) => runCli(args, operatorEnv({ SUNDOWN_DATA_DIR: dataDir }));
let acmeId: string;

beforeAll(async () => {
  const handle = await openEmbedded(dataDir, "cli");
  installDbHandle(handle);
  try {
    await seedDemoOnFirstStart(handle);
    const acme = await handle.client.organization.findUniqueOrThrow({ where: { slug: "acme" }, select: { id: true } });
    acmeId = acme.id;
    const people = await handle.client.member.findMany({
      where: { organizationId: acme.id, role: "member", active: true },
      select: { id: true },
      orderBy: { name: "asc" },
      take: 2,
    });
    await handle.client.$transaction((tx) =>
      writeUpdates(
        tx,
        acme.id,
        people.map((p, i) => ({
          memberId: p.id,
          day: "2026-11-04",
          content: { shipped: [{ title: `Change ${i}` }], slipping: [], blockers: [], kpis: [], note: null },
          source: "import",
        })),
      ),
    );
  } finally {
    await closeDb();
  }
}, 120_000);

describe("sundown reports generate", () => {
  it("generates the day, then again in place with nothing changed", async () => {
    const first = await sundown(["reports", "generate", "--org", "acme", "--date", "2026-11-04", "--json"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result.organization).toEqual({ id: acmeId, slug: "acme", name: expect.any(String) });
    expect(result.day).toBe("2026-11-04");
    expect(result.counts.member).toEqual({ added: 2, replaced: 0, unchanged: 0, deleted: 0 });
    expect(result.counts.org).toEqual({ added: 1, replaced: 0, unchanged: 0, deleted: 0 });
    expect(result.reports.every((r: { outcome: string }) => r.outcome === "added")).toBe(true);

    const again = await sundown(["reports", "generate", "--org", "acme", "--date", "2026-11-04"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Generated 2026-11-04 for`);
    expect(again.stdout).toContain(`(acme), as of its cutoff ${result.generated_at}`);
    expect(again.stdout).toMatch(/ {2}member {2}0 added, 0 replaced, 2 unchanged, 0 deleted/);
    expect(again.stdout).toMatch(/ {2}org {5}0 added, 0 replaced, 1 unchanged, 0 deleted/);
  });

  it("refuses a date that is none, and an unknown organization, writing nothing", async () => {
    const badDate = await sundown(["reports", "generate", "--org", "acme", "--date", "2026-02-30"]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain("--date: must be a date as YYYY-MM-DD");
    const missing = await sundown(["reports", "generate", "--org", "acme"]);
    expect(missing.code).toBe(2);
    const unknown = await sundown(["reports", "generate", "--org", "no-such-org", "--date", "2026-11-04"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No organization");
  });
});
