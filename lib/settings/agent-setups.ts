// The ready-to-paste setups Settings → API keys offers once a key is created, with the key and this server's
// address in place: one for each client docs/mcp.md documents, in the formats it gives there (checked by
// tests/unit/agent-setups.test.ts against the doc's own snippets). Built in the browser from the key the create
// action answered, so the key is in no other response and nowhere on the server.

export interface AgentSetup {
  id: "claude-code" | "cursor" | "vscode" | "codex" | "stdio";
  client: string;
  /** Where it goes: a shell, or a file. */
  where: string;
  text: string;
  /** What to know about where the key now lives. */
  note: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A TOML basic string: the key and URL hold no quote or backslash, but a string is escaped all the same. */
const toml = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** Single quotes for a POSIX shell: nothing inside is expanded. */
const shell = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export function agentSetups({ key, base }: { key: string; base: string }): AgentSetup[] {
  const mcpUrl = `${base.replace(/\/+$/, "")}/api/mcp`;
  const sundownUrl = base.replace(/\/+$/, "");
  const authorization = `Bearer ${key}`;
  const stdioEnv = { SUNDOWN_API_KEY: key, SUNDOWN_URL: sundownUrl };
  return [
    {
      id: "claude-code",
      client: "Claude Code",
      where: "Run in a shell",
      text: `claude mcp add --transport http sundown ${shell(mcpUrl)} \\\n  --header ${shell(`Authorization: ${authorization}`)}`,
      note: "Claude Code keeps the key in its own configuration; the command also stays in your shell history.",
    },
    {
      id: "cursor",
      client: "Cursor",
      where: "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project)",
      text: json({ mcpServers: { sundown: { url: mcpUrl, headers: { Authorization: authorization } } } }),
      note: "Keep a project's .cursor/mcp.json out of version control while the key is in it.",
    },
    {
      id: "vscode",
      client: "VS Code",
      where: ".vscode/mcp.json",
      text: json({ servers: { sundown: { type: "http", url: mcpUrl, headers: { Authorization: authorization } } } }),
      note: "Keep .vscode/mcp.json out of version control while the key is in it; docs/mcp.md shows a form that asks for the key instead.",
    },
    {
      id: "codex",
      client: "Codex",
      where: "~/.codex/config.toml",
      text: [
        "[mcp_servers.sundown]",
        `command = "npx"`,
        `args = ["-y", "@sundown-dev/mcp"]`,
        `env = { SUNDOWN_API_KEY = ${toml(key)}, SUNDOWN_URL = ${toml(sundownUrl)} }`,
      ].join("\n"),
      note: "Codex starts Sundown's stdio server (Node 20 or later), which calls this server's REST API with the key.",
    },
    {
      id: "stdio",
      client: "Any client, over stdio",
      where: "The client's mcpServers configuration (Claude Desktop: claude_desktop_config.json)",
      text: json({ mcpServers: { sundown: { command: "npx", args: ["-y", "@sundown-dev/mcp"], env: stdioEnv } } }),
      note: "For clients that cannot send a header: the stdio server reads SUNDOWN_API_KEY and SUNDOWN_URL.",
    },
  ];
}
