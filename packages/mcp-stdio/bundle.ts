import { readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { build, type Metafile } from "esbuild";

// @sundown-dev/mcp is `npx sundown mcp` (lib/mcp/stdio.ts) for people without a checkout, bundled from lib/ at pack
// time, so the published code is generated from the checkout's and cannot drift from it. What goes where:
// - bundled: Sundown's own modules, which exist nowhere else;
// - dependencies: every npm package those modules import (the MCP SDK's server and core, zod), kept external and
//   installed by npm, so they get their fixes without a release of ours and the SDK and Sundown's schemas share one
//   zod, as they do in the checkout.
// The bundle reaches no database, web framework or server setting: the stdio server only calls the REST API.

export const PACKAGE_DIR = import.meta.dirname;
const ROOT = path.resolve(PACKAGE_DIR, "../..");
const ENTRY = path.join(PACKAGE_DIR, "src/main.ts");

export interface StdioPackageManifest {
  name: string;
  version: string;
  bin: Record<string, string>;
  engines: { node: string };
  dependencies?: Record<string, string>;
}

export function readStdioPackageManifest(dir: string = PACKAGE_DIR): StdioPackageManifest {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
}

/** Where the package's one bin lies, from package.json: the bundle is written there. */
export function binPathOf(manifest: StdioPackageManifest, dir: string = PACKAGE_DIR): string {
  const [bin, ...more] = Object.values(manifest.bin);
  if (!bin || more.length > 0) throw new Error(`${manifest.name} must have exactly one bin, so npx runs it.`);
  return path.join(dir, bin);
}

export interface StdioBundle {
  code: string;
  /** What the bundle imports at run time, as written: Node's built-ins and npm packages (`zod`, `@scope/name/sub`). */
  imports: string[];
  /** The checkout's files it holds, relative to the checkout (`lib/mcp/stdio.ts`). */
  inputs: string[];
}

/** Bundles src/main.ts and what it imports from lib/ into one ES module, in memory. */
export async function bundleStdioServer(
  manifest: StdioPackageManifest = readStdioPackageManifest(),
): Promise<StdioBundle> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    outfile: binPathOf(manifest),
    absWorkingDir: ROOT,
    platform: "node",
    format: "esm",
    // The oldest Node the package accepts (engines, `>=20.19.0`) is the syntax it may use.
    target: `node${manifest.engines.node.replace(/^>=/, "")}`,
    // Every npm package stays an import; only the checkout's own modules (reached through the @/ alias) are inlined.
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    charset: "utf8",
    metafile: true,
    logLevel: "silent",
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error("esbuild wrote no bundle");
  return {
    code: file.text,
    imports: externalImportsOf(result.metafile),
    inputs: Object.keys(result.metafile.inputs).sort(),
  };
}

function externalImportsOf(metafile: Metafile): string[] {
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
  return [...new Set(imports.filter((i) => i.external).map((i) => i.path))].sort();
}

/** What a built bundle (the packed one, say) imports at run time, read by esbuild's parser. */
export async function importsOfBundle(file: string): Promise<string[]> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    outdir: path.dirname(file),
    platform: "node",
    format: "esm",
    packages: "external",
    metafile: true,
    logLevel: "silent",
  });
  return externalImportsOf(result.metafile);
}

// The server's own runtime, which a client of its REST API never needs: the web framework, the database and
// Redis clients. Any of them in the package would make every `npx` download it, and mean server code came along.
const SERVER_ONLY =
  /^(next|next-auth|react|react-dom|pg|prisma|@prisma\/.+|@electric-sql\/.+|pglite-prisma-adapter|ioredis|@upstash\/.+)$/;

export function isServerRuntime(packageName: string): boolean {
  return SERVER_ONLY.test(packageName);
}

/** `@scope/name/sub/path` → `@scope/name`; `zod/v4` → `zod`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * What is wrong with a package whose bundle imports `imports`: a server-only package among its dependencies or
 * imports, an import npm would not install (not in dependencies), or a dependency nothing imports. Empty when right.
 */
export function stdioPackageViolations(
  manifest: Pick<StdioPackageManifest, "dependencies">,
  imports: string[],
): string[] {
  const declared = Object.keys(manifest.dependencies ?? {});
  const imported = [...new Set(imports.filter((i) => !isBuiltin(i)).map(packageNameOf))];
  const names = [...new Set([...declared, ...imported])].sort();
  return names.flatMap((name) => {
    if (isServerRuntime(name)) return [`${name}: the server's runtime, never the stdio package's`];
    if (!declared.includes(name)) return [`${name}: imported by the bundle but not in dependencies`];
    if (!imported.includes(name)) return [`${name}: in dependencies but never imported`];
    return [];
  });
}
