import path from "node:path";
import { fileURLToPath } from "node:url";

// The checkout's own directory, whatever the current one: the CLI may run from anywhere. Computed from
// this file's place (lib/ is one level down). Under the CLI (tsx) and the tests import.meta.url is the
// source file; in a Turbopack build it is resolved at run time from where the build lies, so the server
// agrees with the CLI even if the build has moved.
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
