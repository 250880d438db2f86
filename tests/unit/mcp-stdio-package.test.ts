import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  bundleStdioServer,
  packageNameOf,
  readStdioPackageManifest,
  stdioPackageViolations,
} from "@/packages/mcp-stdio/bundle";

// @sundown-dev/mcp (packages/mcp-stdio) is lib/mcp/stdio.ts bundled at pack time. These hold what it may carry:
// Sundown's own modules inlined, npm packages as the dependencies npm installs, nothing of the server's runtime.
// tests/process/mcp-stdio-package.test.ts packs, installs and runs it.

const manifest = readStdioPackageManifest();
const checkout = JSON.parse(readFileSync("package.json", "utf8"));

describe("the stdio package's bundle", () => {
  it("is the checkout's stdio server and REST source, importing only Node's built-ins and its dependencies", async () => {
    const bundle = await bundleStdioServer(manifest);
    expect(bundle.inputs).toEqual(
      expect.arrayContaining(["lib/mcp/stdio.ts", "lib/api-client/rest-source.ts", "lib/api-client/settings.ts"]),
    );
    expect(bundle.inputs.filter((file) => !/^(lib|packages\/mcp-stdio\/src)\//.test(file))).toEqual([]);
    expect(bundle.imports).toContain("@modelcontextprotocol/server/stdio");
    expect(stdioPackageViolations(manifest, bundle.imports)).toEqual([]);
    expect(bundle.code.startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("the check can fail: server-only packages, an import npm would not install, a dependency never used", () => {
    const wrong = { dependencies: { next: "16.4.5", zod: "^4.6.7", "left-pad": "^1.3.0" } };
    expect(
      stdioPackageViolations(wrong, ["next/server", "@prisma/client", "pg", "zod/v4", "cross-spawn", "node:fs", "fs"]),
    ).toEqual([
      "@prisma/client: the server's runtime, never the stdio package's",
      "cross-spawn: imported by the bundle but not in dependencies",
      "left-pad: in dependencies but never imported",
      "next: the server's runtime, never the stdio package's",
      "pg: the server's runtime, never the stdio package's",
    ]);
  });

  it("names the package an import comes from", () => {
    expect(packageNameOf("@modelcontextprotocol/server/validators/ajv")).toBe("@modelcontextprotocol/server");
    expect(packageNameOf("zod/v4")).toBe("zod");
    expect(packageNameOf("zod")).toBe("zod");
  });
});

describe("the stdio package's manifest", () => {
  it("depends on what the checkout runs the stdio server with, at the checkout's ranges", () => {
    const dependencies = Object.keys(manifest.dependencies ?? {});
    expect(dependencies.length).toBeGreaterThan(0);
    for (const name of dependencies) expect(manifest.dependencies?.[name], name).toBe(checkout.dependencies[name]);
  });

  it("publishes only the bundle, accepts the oldest Node the checkout does, and has one bin", () => {
    expect(manifest).toMatchObject({ files: ["dist/"], bin: { "sundown-mcp": "dist/sundown-mcp.mjs" } });
    const oldestNode = /^\^(\d+\.\d+\.\d+)/.exec(checkout.engines.node)?.[1];
    expect(manifest.engines.node).toBe(`>=${oldestNode}`);
  });
});
