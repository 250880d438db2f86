import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { binPathOf, bundleStdioServer, readStdioPackageManifest, stdioPackageViolations } from "./bundle";

// `npm pack` and `npm publish` run this first (prepack), so the package always holds a bundle of today's lib/.
// Messages go to stderr: `npm pack --json` prints its report on stdout.

const manifest = readStdioPackageManifest();
const bundle = await bundleStdioServer(manifest);
const violations = stdioPackageViolations(manifest, bundle.imports);
if (violations.length > 0) {
  process.stderr.write(`${manifest.name} cannot be packed:\n${violations.map((v) => `  ${v}\n`).join("")}`);
  process.exit(1);
}
const bin = binPathOf(manifest);
mkdirSync(path.dirname(bin), { recursive: true });
writeFileSync(bin, bundle.code);
chmodSync(bin, 0o755);
process.stderr.write(
  `${manifest.name}: bundled ${bundle.inputs.length} files of the checkout into ${path.relative(process.cwd(), bin)} (${Buffer.byteLength(bundle.code)} bytes)\n`,
);
