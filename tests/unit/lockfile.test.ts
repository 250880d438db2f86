import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// `npm ci` refuses a lockfile that lacks any declared dependency, including another platform's optional
// build (npm install on Linux silently leaves out macOS and Windows builds the registry does not have).
type LockedPackage = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, LockedPackage>;
};

/** Node's lookup: the package's own node_modules first, then each enclosing one up to the root. */
function lockedLocation(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (candidate in lock.packages) return candidate;
    if (!dir) return undefined;
    dir = dir.slice(0, dir.lastIndexOf("node_modules/")).replace(/\/$/, "");
  }
}

function declaredDependencies(location: string, locked: LockedPackage): string[] {
  const installed = { ...locked.dependencies, ...locked.optionalDependencies };
  const ownDev = location === "" ? locked.devDependencies : undefined;
  return Object.keys({ ...installed, ...ownDev });
}

describe("package-lock.json", () => {
  it("records every declared dependency, every platform's optional builds included", () => {
    const missing = Object.entries(lock.packages).flatMap(([location, locked]) =>
      declaredDependencies(location, locked)
        .filter((name) => !lockedLocation(location, name))
        .map((name) => `${location || "(root)"} -> ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it("locks next and each of its @next/swc builds at one version", () => {
    const next = lock.packages["node_modules/next"];
    const swcBuilds = Object.keys(next.optionalDependencies ?? {}).filter((name) => name.startsWith("@next/swc-"));
    expect(swcBuilds.length).toBeGreaterThanOrEqual(8);
    const versions = swcBuilds.map((name) => {
      const location = lockedLocation("node_modules/next", name);
      return location && lock.packages[location].version;
    });
    expect(versions).toEqual(swcBuilds.map(() => next.version));
  });
});
