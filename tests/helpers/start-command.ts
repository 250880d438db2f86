import { readFileSync } from "node:fs";
import path from "node:path";

// `npm start` as package.json declares it: `node <Node flags> node_modules/next/dist/bin/next start <Next flags>`.
// The process tests, the browser tests and the bench start the server with the same flags, so they run what is
// deployed (its heap limits, its compile cache, its keep-alive timeout) and the flags are written down once.

const ROOT = path.resolve(import.meta.dirname, "../..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

export interface StartCommand {
  /** Flags for Node, before Next.js's binary. */
  nodeFlags: string[];
  /** Flags for `next start`, after it. */
  nextFlags: string[];
}

const START_SCRIPT =
  /^node((?:\s+-\S+)*)\s+node_modules\/next\/dist\/bin\/next\s+start((?:\s+-\S+(?:\s+[^-\s]\S*)?)*)\s*$/;

export function startCommand(): StartCommand {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.start ?? "";
  const match = START_SCRIPT.exec(script);
  if (!match)
    throw new Error(
      `package.json's start script is not \`node <flags> node_modules/next/dist/bin/next start <flags>\`: ${script}`,
    );
  const words = (flags: string) => flags.split(/\s+/).filter(Boolean);
  return { nodeFlags: words(match[1]!), nextFlags: words(match[2]!) };
}

/**
 * The arguments that start the production server as `npm start` does, for `node` (process.execPath), on one
 * port of 127.0.0.1; `projectDir` is another Next.js project (the bench's anchor) run the same way.
 */
export function nextStartArgs(port: number, options: { nodeFlags?: string[]; projectDir?: string } = {}): string[] {
  const { nodeFlags, nextFlags } = startCommand();
  return [
    ...nodeFlags,
    ...(options.nodeFlags ?? []),
    NEXT_BIN,
    "start",
    ...(options.projectDir ? [options.projectDir] : []),
    ...nextFlags,
    "-p",
    String(port),
    "-H",
    "127.0.0.1",
  ];
}
