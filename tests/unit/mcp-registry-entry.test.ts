import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_VERSION } from "@/lib/discovery/api-root";
import { SERVER_DESCRIPTION, SERVER_TITLE } from "@/lib/mcp/server";
import { DEFAULT_SUNDOWN_URL, readStdioSettings } from "@/lib/mcp/stdio";
import { registryEntryViolations } from "../helpers/vendored-schemas";

// server.json is what `mcp-publisher publish` sends to the MCP Registry. It is checked against the registry's
// published schema, and against the code it describes, so the entry cannot drift from what Sundown does.

const entry = JSON.parse(readFileSync("server.json", "utf8"));
const pkg = JSON.parse(readFileSync("package.json", "utf8"));

describe("server.json (MCP Registry entry)", () => {
  it("conforms to the registry's published schema", () => {
    expect(entry.$schema).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    expect(registryEntryViolations(entry)).toEqual([]);
  });

  it("the schema check can fail: a description over the registry's 100 characters and a missing version", () => {
    const { version: _version, ...withoutVersion } = entry;
    expect(registryEntryViolations({ ...withoutVersion, description: "x".repeat(101) })).toEqual(
      expect.arrayContaining([
        "/ must have required property 'version'",
        "/description must NOT have more than 100 characters",
      ]),
    );
  });

  it("names the server as package.json's mcpName (the registry checks it against the npm package), as it runs", () => {
    expect(entry.name).toBe(pkg.mcpName);
    expect(entry.version).toBe(API_VERSION);
    expect(entry.title).toBe(SERVER_TITLE);
    expect(entry.description).toBe(SERVER_DESCRIPTION);
  });

  it("describes the remote: Streamable HTTP at /api/mcp, the key as a required secret Authorization header", () => {
    expect(entry.remotes).toHaveLength(1);
    const [remote] = entry.remotes;
    expect(remote.type).toBe("streamable-http");
    expect(remote.url).toMatch(/^https:\/\/\{host\}\/api\/mcp$/);
    expect(remote.variables.host.isRequired).toBe(true);
    expect(remote.headers).toEqual([
      expect.objectContaining({ name: "Authorization", value: "Bearer {api_key}", isRequired: true, isSecret: true }),
    ]);
    expect(remote.headers[0].variables.api_key).toMatchObject({ isRequired: true, isSecret: true });
  });

  it("describes the stdio package as it runs: npx <package> mcp, with the two settings the server reads", () => {
    expect(entry.packages).toHaveLength(1);
    const [stdio] = entry.packages;
    expect(stdio).toMatchObject({
      registryType: "npm",
      identifier: pkg.name,
      version: pkg.version,
      runtimeHint: "npx",
      transport: { type: "stdio" },
      packageArguments: [{ type: "positional", value: "mcp" }],
    });
    expect(Object.keys(pkg.bin)).toContain(pkg.name);
    const env = Object.fromEntries(stdio.environmentVariables.map((v: { name: string }) => [v.name, v]));
    expect(Object.keys(env).sort()).toEqual(["SUNDOWN_API_KEY", "SUNDOWN_URL"]);
    expect(env.SUNDOWN_API_KEY).toMatchObject({ isRequired: true, isSecret: true });
    expect(env.SUNDOWN_URL.default).toBe(DEFAULT_SUNDOWN_URL);
    // The settings are the ones the stdio server reads: without the key it refuses to start, naming it.
    expect(() => readStdioSettings({})).toThrow(/SUNDOWN_API_KEY/);
  });
});
