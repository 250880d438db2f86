import { readFile } from "node:fs/promises";
import path from "node:path";
import { fixedBody, type FixedBody } from "@/lib/http/responses";
import { API_REFERENCE_SCRIPT_FILE } from "./api-reference-script-file";

// The docs page's API reference is Scalar's own browser build: a Vue app with its styles, prebuilt and minified
// by Scalar. Served as it ships instead of compiled through the app's bundler, whose compile of it was most of
// the docs page's first load under `npm run dev` (bench/findings.md, "The development loop").

let script: Promise<FixedBody> | undefined;

/** The script and its ETag, read and hashed once per process (a few megabytes: hashing them takes milliseconds). */
export function apiReferenceScript(): Promise<FixedBody> {
  script ??= readFile(path.join(process.cwd(), API_REFERENCE_SCRIPT_FILE), "utf8").then(fixedBody, (error: unknown) => {
    script = undefined;
    throw error;
  });
  return script;
}
