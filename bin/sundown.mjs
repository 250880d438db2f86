#!/usr/bin/env node
// The operator CLI is TypeScript that shares lib/ with the server; tsx compiles it on the fly.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
await import("../cli/main.ts");
