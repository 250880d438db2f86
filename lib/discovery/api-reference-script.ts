import { readFile } from "node:fs/promises";
import path from "node:path";

// The docs page's API reference is Scalar's own browser build: a Vue app with its styles, prebuilt and minified
// by Scalar. Served as it ships instead of compiled through the app's bundler, whose compile of it was most of
// the docs page's first load under `npm run dev` (bench/findings.md, "The development loop").
// next.config.ts traces this file into the deployment.
export const API_REFERENCE_SCRIPT_FILE = "node_modules/@scalar/api-reference/dist/browser/standalone.js";

let script: Promise<string> | undefined;

/** The script's text, read once per process (a few megabytes, asked for by browsers now and then). */
export function apiReferenceScript(): Promise<string> {
  script ??= readFile(path.join(process.cwd(), API_REFERENCE_SCRIPT_FILE), "utf8").catch((error: unknown) => {
    script = undefined;
    throw error;
  });
  return script;
}
