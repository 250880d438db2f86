import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_SUNDOWN_URL, readClientSettings } from "@/lib/api-client/settings";
import { API_VERSION } from "@/lib/api-version";
import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { SERVER_DESCRIPTION, SERVER_TITLE } from "@/lib/mcp/server";
import { registryEntryViolations } from "../helpers/vendored-schemas";

// server.json is what `mcp-publisher publish` sends to the MCP Registry. It is checked against the registry's
// published schema, and against the code it describes, so the entry cannot drift from what Sundown does.

const entry = JSON.parse(readFileSync("server.json", "utf8"));
const checkout = JSON.parse(readFileSync("package.json", "utf8"));
// The npm package the stdio entry names: packages/mcp-stdio, published on its own (the checkout is private).
const stdioPackage = JSON.parse(readFileSync("packages/mcp-stdio/package.json", "utf8"));

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

  it("names the server as the stdio package's mcpName (the registry checks it against the npm package), as it runs", () => {
    expect(entry.name).toBe(stdioPackage.mcpName);
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

  it("describes the stdio package as it runs: npx <package>, with the two settings the server reads", () => {
    expect(entry.packages).toHaveLength(1);
    const [stdio] = entry.packages;
    expect(stdio).toMatchObject({
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: stdioPackage.name,
      version: stdioPackage.version,
      runtimeHint: "npx",
      transport: { type: "stdio" },
    });
    // npx runs a package's only bin, with no arguments.
    expect(Object.keys(stdioPackage.bin)).toHaveLength(1);
    expect(stdio.packageArguments).toBeUndefined();
    const env = Object.fromEntries(stdio.environmentVariables.map((v: { name: string }) => [v.name, v]));
    expect(Object.keys(env).sort()).toEqual(["SUNDOWN_API_KEY", "SUNDOWN_URL"]);
    expect(env.SUNDOWN_API_KEY).toMatchObject({ isRequired: true, isSecret: true });
    expect(env.SUNDOWN_URL.default).toBe(DEFAULT_SUNDOWN_URL);
    // The settings are the ones the stdio server reads: without the key it refuses to start, naming it.
    expect(() => readClientSettings({})).toThrow(/SUNDOWN_API_KEY/);
  });

  it("names a package the owner can publish: scoped, public, released with the checkout's version", () => {
    expect(checkout.private).toBe(true);
    expect(stdioPackage.private).toBeUndefined();
    // Scoped packages publish as restricted (paid, private) unless told otherwise.
    expect(stdioPackage.publishConfig).toEqual({ access: "public" });
    // The bare name `sundown` on npm is someone else's library: never send anyone there.
    expect(stdioPackage.name).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+$/);
    expect(stdioPackage.version).toBe(checkout.version);
  });

  it("llms.txt tells agents to run that package, not a checkout's command", () => {
    const llms = buildLlmsTxt("https://sundown.example.com");
    expect(llms).toContain(
      `SUNDOWN_URL=https://sundown.example.com SUNDOWN_API_KEY=<API_KEY> npx -y ${stdioPackage.name}`,
    );
    expect(llms).not.toMatch(/npx sundown\b/);
  });
});
