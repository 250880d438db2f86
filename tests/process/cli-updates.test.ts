import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorEnv, runCli } from "../helpers/cli";
import { startServer, tempDataDir, type RunningServer } from "../helpers/server";

// `sundown updates import` as an operator runs it: real processes on an embedded database of their own (the demo
// organizations seeded on first open: Aisha Khan is a member of acme, Dev Patel a lead), first with no server
// running, then through the running server's command socket, beside POST /ingest/v1/updates.

// Each CLI run compiles TypeScript and opens a database: seconds apiece on a busy machine.
const SLOW = 180_000;
const dataDir = tempDataDir();
const env = { SUNDOWN_DATA_DIR: dataDir };
const sundown = (args: string[], input?: string) => runCli(args, operatorEnv(env), { input });

const CSV = [
  "date,email,section,text,reason,due,value",
  "2026-11-02,aisha@acme.example,shipped,Released gripper firmware 2.3,,,",
  "2026-11-02,aisha@acme.example,slipping,Warehouse pilot,waiting on the survey,2026-10-30,",
  "2026-11-02,dev@acme.example,kpi,Units shipped,,,42",
  "2026-11-03,dev@acme.example,away,,,,",
].join("\n");

describe("sundown updates import", () => {
  let server: RunningServer | undefined;

  afterAll(async () => {
    await server?.stop();
  });

  describe("with no server running", () => {
    it(
      "imports a CSV: a dry run writes nothing, the file twice changes nothing, --json gives the counts",
      async () => {
        const file = path.join(dataDir, "week.csv");
        writeFileSync(file, CSV);
        const dry = await sundown(["updates", "import", file, "--org", "acme", "--dry-run", "--json"]);
        expect(dry).toMatchObject({ code: 0, stderr: "" });
        expect(JSON.parse(dry.stdout)).toMatchObject({
          updates: { added: 2, unchanged: 0, replaced: 0 },
          absences: { added: 1, unchanged: 0 },
          dry_run: true,
          problems: null,
          organization: { slug: "acme" },
        });
        const first = await sundown(["updates", "import", file, "--org", "acme", "--json"]);
        expect(JSON.parse(first.stdout)).toMatchObject({ updates: { added: 2 }, absences: { added: 1 } });
        const again = await sundown(["updates", "import", "-", "--org", "acme"], CSV);
        expect(again).toEqual({
          code: 0,
          stderr: "",
          stdout:
            "Imported updates into Acme Robotics (acme): updates 0 added, 0 replaced, 2 unchanged; absences 0 added, 1 unchanged.\n",
        });
      },
      SLOW,
    );

    it(
      "refuses a file with problems, each named by row and field, exit 1, with --json too, writing nothing",
      async () => {
        const bad = [
          "date,email,section,text,value",
          "2026-11-04,aisha@acme.example,shipped,Fine on its own,",
          "2026-11-04,nobody@acme.example,shipped,Who?,",
          "2026-11-04,aisha@acme.example,kpi,NPS,61",
          "2999-01-01,dev@acme.example,blocker,Later,",
          "2026-11-04,dev@acme.example,kpi,NPS,lots",
        ].join("\n");
        const text = await sundown(["updates", "import", "-", "--org", "acme"], bad);
        expect(text.code).toBe(1);
        expect(text.stdout).toBe("");
        expect(text.stderr.split("\n")).toEqual([
          "sundown: The updates file is invalid (4 problems); nothing was imported.",
          "  row 3, email: no one of the roster has this address (see `sundown members list`)",
          "  row 4, section: only founders and leads report KPI values; Aisha Khan is a member",
          expect.stringMatching(/^ {2}row 5, date: is after today \(\d{4}-\d\d-\d\d in [\w/]+\)/),
          "  row 6, value: must be a number such as 12 or -3.5",
          "",
        ]);
        const json = await sundown(["updates", "import", "-", "--org", "acme", "--json"], bad);
        expect(json.code).toBe(1);
        expect(JSON.parse(json.stdout)).toMatchObject({
          updates: { added: 0, unchanged: 0, replaced: 0 },
          problems: [
            { row: "row 3", field: "email" },
            { row: "row 4", field: "section" },
            { row: "row 5", field: "date" },
            { row: "row 6", field: "value" },
          ],
        });
        // Row 2 alone was fine, and was not written: it is still to be added.
        const fine = "date,email,section,text\n2026-11-04,aisha@acme.example,shipped,Fine on its own";
        const dry = await sundown(["updates", "import", "-", "--org", "acme", "--dry-run", "--json"], fine);
        expect(JSON.parse(dry.stdout).updates).toEqual({ added: 1, unchanged: 0, replaced: 0 });
      },
      SLOW,
    );
  });

  describe("while the server runs on the database", () => {
    beforeAll(async () => {
      server = await startServer(env);
    }, 120_000);

    it(
      "runs in the server (its command socket), and what it wrote is what POST /ingest/v1/updates finds",
      async () => {
        const json = JSON.stringify({
          updates: [{ date: "2026-11-05", email: "aisha@acme.example", shipped: ["Shipped from a JSON file"] }],
        });
        const file = path.join(dataDir, "day.json");
        writeFileSync(file, json);
        const imported = await sundown(["updates", "import", file, "--org", "acme", "--json"]);
        expect(imported).toMatchObject({ code: 0, stderr: "" });
        expect(JSON.parse(imported.stdout).updates).toEqual({ added: 1, unchanged: 0, replaced: 0 });

        const created = await sundown(["ingest-tokens", "create", "--org", "acme", "--name", "standup-bot", "--json"]);
        const { token } = JSON.parse(created.stdout) as { token: string };
        const send = (body: string) =>
          fetch(`${server!.url}/ingest/v1/updates`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body,
          });
        const same = await send(json);
        expect(same.status).toBe(200);
        expect(await same.json()).toEqual({
          updates: { added: 0, unchanged: 1, replaced: 0 },
          absences: { added: 0, unchanged: 0 },
          dry_run: false,
        });
        const bad = await send("{");
        expect(bad.status).toBe(400);
        expect(await bad.json()).toMatchObject({ error: "invalid_parameter" });
      },
      SLOW,
    );
  });
});
