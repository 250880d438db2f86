import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { operatorEnv, runCli } from "../helpers/cli";
import { tempDataDir } from "../helpers/server";

// `sundown members import|list|export` as an operator runs them: real processes on an embedded database of their
// own (the demo organizations seeded on first open), no server running.

// Each CLI run compiles TypeScript and opens a database: seconds apiece on a busy machine.
const SLOW = 180_000;
const dataDir = tempDataDir();
const env = { SUNDOWN_DATA_DIR: dataDir };
const sundown = (args: string[], input?: string) => runCli(args, operatorEnv(env), { input });

const CSV = [
  "name,email,role,department,external,active,chat,phone",
  "Ana Lima,ana@acme.example,member,Design,false,true,@analima,+44 20 7946 0958",
  "Bo Reis,bo@acme.example,lead,,true,true,,",
].join("\n");

describe("sundown members", () => {
  it(
    "imports a CSV: a dry run writes nothing, the file twice changes nothing, --json gives the counts",
    async () => {
      const file = path.join(dataDir, "roster.csv");
      writeFileSync(file, CSV);
      const dry = await sundown(["members", "import", file, "--org", "acme", "--dry-run", "--json"]);
      expect(dry).toMatchObject({ code: 0, stderr: "" });
      expect(JSON.parse(dry.stdout)).toMatchObject({
        added: 2,
        updated: 0,
        unchanged: 0,
        dry_run: true,
        problems: null,
      });
      const first = await sundown(["members", "import", file, "--org", "acme", "--json"]);
      expect(JSON.parse(first.stdout)).toMatchObject({ added: 2, updated: 0, unchanged: 0, deactivated: 0 });
      const again = await sundown(["members", "import", "-", "--org", "acme"], CSV);
      expect(again).toMatchObject({ code: 0, stderr: "" });
      expect(again.stdout).toBe(
        "Imported the roster of Acme Robotics (acme): 0 added, 0 updated, 2 unchanged, 0 deactivated.\n",
      );
    },
    SLOW,
  );

  it(
    "refuses a file with problems, each named by row and field, exit 1, with --json too",
    async () => {
      const bad = "name,email,role\nCy,cy@acme.example,boss\n,not-mail,member";
      const text = await sundown(["members", "import", "-", "--org", "acme"], bad);
      expect(text).toEqual({
        code: 1,
        stdout: "",
        stderr: [
          "sundown: The roster file is invalid (3 problems); nothing was imported.",
          "  row 2, role: must be founder, lead, member",
          "  row 3, name: enter the person's name",
          "  row 3, email: must be an e-mail address such as ana@example.com",
          "",
        ].join("\n"),
      });
      const json = await sundown(["members", "import", "-", "--org", "acme", "--json"], bad);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        added: 0,
        problems: [
          { row: "row 2", field: "role" },
          { row: "row 3", field: "name" },
          { row: "row 3", field: "email" },
        ],
      });
    },
    SLOW,
  );

  it(
    "lists the roster and exports it as a CSV with ids that imports back unchanged",
    async () => {
      const list = await sundown(["members", "list", "--org", "acme", "--json"]);
      const { members } = JSON.parse(list.stdout) as { members: { id: string; name: string; chat: string[] }[] };
      const ana = members.find((m) => m.name === "Ana Lima")!;
      expect(ana.chat).toEqual(["@analima"]);
      const output = path.join(dataDir, "export.csv");
      const exported = await sundown(["members", "export", "--org", "acme", "--output", output]);
      expect(exported.code).toBe(0);
      const csv = readFileSync(output, "utf8");
      expect(csv.split("\n")[0]).toMatch(/^id,name,email,role,department,external,active,chat/);
      expect(csv).toContain(`${ana.id},Ana Lima,ana@acme.example,member,Design,false,true,@analima`);
      const back = await sundown(["members", "import", output, "--org", "acme", "--json"]);
      expect(JSON.parse(back.stdout)).toMatchObject({ added: 0, updated: 0, deactivated: 0 });
    },
    SLOW,
  );
});
