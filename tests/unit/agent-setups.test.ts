import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentSetups } from "@/lib/settings/agent-setups";

// The setups Settings → API keys offers with a new key (lib/settings/agent-setups.ts): each is the format
// docs/mcp.md documents for its client, with the key and the server's address in place of the placeholders.

const KEY = "sdn_sk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab";
const BASE = "https://sundown.example.com";
const setups = Object.fromEntries(agentSetups({ key: KEY, base: `${BASE}/` }).map((s) => [s.id, s]));
const docs = readFileSync(path.join(import.meta.dirname, "../../docs/mcp.md"), "utf8");

/** The documented snippet of a client: the first fenced block after its heading. */
function documented(heading: string, fence = "json"): string {
  const at = docs.indexOf(`### ${heading}`);
  expect(at, heading).toBeGreaterThan(-1);
  const start = docs.indexOf(`\`\`\`${fence}\n`, at) + fence.length + 4;
  return docs.slice(start, docs.indexOf("```", start));
}

/** A documented snippet with its placeholders as the offered one fills them. */
const filled = (text: string) =>
  text
    .replaceAll("${SUNDOWN_API_KEY}", KEY)
    .replaceAll("${env:SUNDOWN_API_KEY}", KEY)
    .replaceAll("${input:sundown-key}", KEY)
    .replaceAll("sdn_sk_…", KEY);

describe("the agent setups offered with a new key", () => {
  it("gives Claude Code the documented `claude mcp add --transport http` with the header", () => {
    expect(setups["claude-code"]!.text).toBe(
      `claude mcp add --transport http sundown '${BASE}/api/mcp' \\\n  --header 'Authorization: Bearer ${KEY}'`,
    );
    expect(documented("Claude Code", "sh")).toContain(
      'claude mcp add --transport http sundown https://sundown.example.com/api/mcp \\\n  --header "Authorization: Bearer $SUNDOWN_API_KEY"',
    );
  });

  it("gives Cursor the documented mcp.json entry", () => {
    const offered = JSON.parse(setups.cursor!.text);
    const doc = JSON.parse(filled(documented("Cursor")));
    expect(offered).toEqual({ mcpServers: { sundown: doc.mcpServers.sundown } });
  });

  it("gives VS Code the documented .vscode/mcp.json server, the key in place of the prompt", () => {
    const offered = JSON.parse(setups.vscode!.text);
    const doc = JSON.parse(filled(documented("VS Code (GitHub Copilot agent mode)")));
    expect(offered).toEqual({ servers: { sundown: doc.servers.sundown } });
  });

  it("gives Codex the documented config.toml table for the stdio server", () => {
    expect(filled(documented("Codex", "toml")).trim()).toBe(setups.codex!.text);
  });

  it("gives other clients the stdio server's documented mcpServers entry", () => {
    const offered = JSON.parse(setups.stdio!.text);
    const doc = JSON.parse(filled(documented("Claude Desktop")));
    expect(offered).toEqual(doc);
  });

  it("quotes what it puts in a shell or TOML, so an address cannot break out", () => {
    const [claude] = agentSetups({ key: KEY, base: "https://x.example/a'b" });
    expect(claude!.text).toContain(`'https://x.example/a'\\''b/api/mcp'`);
  });
});
