import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PACKAGE_DIR,
  binPathOf,
  importsOfBundle,
  isServerRuntime,
  readStdioPackageManifest,
  stdioPackageViolations,
  type StdioPackageManifest,
} from "@/packages/mcp-stdio/bundle";
import { MCP_ERAS, type McpEra } from "../helpers/mcp-client";
import { connectStdioClient } from "../helpers/mcp-stdio-client";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-server";

// What someone without a checkout runs: `npm pack` of packages/mcp-stdio (its prepack bundles lib/), the tarball
// installed into an empty folder as `npx -y` would, and that folder's bin serving both eras against a running server.
// Installing fetches the SDK and zod from the npm registry once; after that the npm cache serves them.
const run = promisify(execFile);
const NODE_DIR = path.dirname(process.execPath);

interface PackReport {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

interface Installed {
  pack: PackReport;
  dir: string;
  manifest: StdioPackageManifest;
  bin: string;
}

const temporary: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** npm as a user runs it: none of the npm_* settings `npm test` hands its children (its prefix among them). */
function npm(args: string[], cwd: string) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
  ) as NodeJS.ProcessEnv;
  return run("npm", args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
}

async function packAndInstall(): Promise<Installed> {
  const packDir = tempDir("sundown-pack-");
  const { stdout } = await npm(["pack", "--json", "--pack-destination", packDir], PACKAGE_DIR);
  const [pack] = JSON.parse(stdout) as PackReport[];
  if (!pack) throw new Error(`npm pack reported nothing: ${stdout}`);
  // An empty folder, but for the manifest `npm init` would write: without one, npm looks for a project further up.
  const dir = tempDir("sundown-npx-");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "stdio-package-check", private: true }));
  await npm(
    ["install", "--prefix", dir, "--prefer-offline", "--no-audit", "--no-fund", path.join(packDir, pack.filename)],
    dir,
  );
  const packageDir = path.join(dir, "node_modules", readStdioPackageManifest().name);
  const manifest = readStdioPackageManifest(packageDir);
  // The link npm makes in node_modules/.bin, which npx runs.
  const bin = path.join(dir, "node_modules/.bin", Object.keys(manifest.bin)[0]!);
  return { pack, dir, manifest, bin };
}

let t: McpTestServer;
let installed: Installed;

beforeAll(async () => {
  [t, installed] = await Promise.all([startMcpTestServer(), packAndInstall()]);
}, 240_000);

afterAll(async () => {
  await t?.server.stop();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** Only what an MCP client's config passes, and a PATH whose first node is this one (the bin is `#!/usr/bin/env node`). */
function clientEnv(settings: Record<string, string>): Record<string, string> {
  return { PATH: `${NODE_DIR}${path.delimiter}${process.env.PATH}`, HOME: os.homedir(), ...settings };
}

/** The installed bin, spawned from the install folder by the era's SDK client, as a desktop client spawns npx. */
function connectInstalled(key: string, era: McpEra) {
  return connectStdioClient(
    {
      command: installed.bin,
      args: [],
      cwd: installed.dir,
      env: clientEnv({ SUNDOWN_API_KEY: key, SUNDOWN_URL: t.server.url }),
    },
    era,
    "sundown-stdio-package-test",
  );
}

describe("the packed stdio package", () => {
  it("holds the bundle and its manifest, and neither it nor what npm installed is the server's runtime", async () => {
    expect(installed.pack.files.map((f) => f.path).sort()).toEqual([
      "README.md",
      "dist/sundown-mcp.mjs",
      "package.json",
    ]);
    // About 70 kB today: one that pulled in the server (Next, Prisma, the database) would be many megabytes.
    expect(installed.pack.unpackedSize).toBeLessThan(250_000);

    const bundle = binPathOf(installed.manifest, path.join(installed.dir, "node_modules", installed.manifest.name));
    expect(stdioPackageViolations(installed.manifest, await importsOfBundle(bundle))).toEqual([]);
    expect(installed.manifest.dependencies).toEqual(readStdioPackageManifest().dependencies);

    const tree = JSON.parse(readFileSync(path.join(installed.dir, "node_modules/.package-lock.json"), "utf8"));
    const names = Object.keys(tree.packages).map((p) => p.replace(/^.*node_modules\//, ""));
    expect(names).toContain("@modelcontextprotocol/server");
    expect(names.filter(isServerRuntime)).toEqual([]);
  });

  it("refuses to start without a key: one line on stderr, exit code 1, nothing on stdout", async () => {
    const failed = await run(installed.bin, [], {
      cwd: installed.dir,
      env: clientEnv({ SUNDOWN_URL: t.server.url }) as unknown as NodeJS.ProcessEnv,
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code?: number; stdout: string; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toMatch(/^sundown mcp: SUNDOWN_API_KEY is not set\. .*\n$/);
  });
});

describe.each(MCP_ERAS)("the installed stdio package against a running server, %s", (era) => {
  it("serves whoami and list_reports with the same data as REST, under the package's version", async () => {
    const { key } = await t.mintKey();
    const { client, stderr, protocolErrors } = await connectInstalled(key, era);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "sundown", version: installed.manifest.version });
      const me = await client.callTool({ name: "whoami", arguments: {} });
      expect(me.isError).toBeFalsy();
      expect(me.structuredContent).toEqual((await t.rest("/api/v1/me", key)).body);
      const list = await client.callTool({ name: "list_reports", arguments: { limit: 3 } });
      expect(list.isError).toBeFalsy();
      expect(list.structuredContent).toEqual((await t.rest("/api/v1/reports?limit=3", key)).body);
      expect(protocolErrors).toEqual([]);
      expect(stderr()).toContain("sundown mcp: serving Acme Robotics");
    } finally {
      await client.close();
    }
  });
});
