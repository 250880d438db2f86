import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { isWellFormedApiKey } from "@/lib/auth/api-key";
import { ApiError } from "@/lib/errors";
import type { Identity } from "@/lib/schemas/identity";
import { createRestSource } from "./rest-source";
import { createSundownServer } from "./server";
import type { SundownSource } from "./source";

// `npx sundown mcp`: the four tools over stdio for desktop clients, backed by the REST API of a running Sundown.
// stdout belongs to the protocol; everything for people goes to stderr.

export const DEFAULT_SUNDOWN_URL = "http://localhost:3000";

/** A start-up failure the user must fix; the message says what and how, on one line. */
export class StdioStartError extends Error {
  constructor(message: string) {
    super(`sundown mcp: ${message}`);
    this.name = "StdioStartError";
  }
}

// The stdio server is a client of the API, so it reads the client's two settings here; getEnv() describes the server.
const settingsSchema = z.object({
  SUNDOWN_API_KEY: z.string().trim().optional(),
  SUNDOWN_URL: z.string().trim().optional(),
});

export interface StdioSettings {
  apiKey: string;
  baseUrl: string;
}

export function readStdioSettings(env: Record<string, string | undefined> = process.env): StdioSettings {
  const { SUNDOWN_API_KEY: apiKey, SUNDOWN_URL: rawUrl } = settingsSchema.parse(env);
  if (!apiKey) {
    throw new StdioStartError(
      "SUNDOWN_API_KEY is not set. Create a key in Sundown under Settings → API keys (or `npx sundown keys create --org <slug> --name <name> --scopes reports:read,team:read`) and put it in the env of your MCP client's config.",
    );
  }
  if (!isWellFormedApiKey(apiKey)) {
    throw new StdioStartError(
      "SUNDOWN_API_KEY is not a Sundown API key (they start with sdn_sk_ and carry a checksum); copy it again from the settings page.",
    );
  }
  const url = rawUrl || DEFAULT_SUNDOWN_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StdioStartError(
      `SUNDOWN_URL is not a URL: ${JSON.stringify(url)}. Use the address of your Sundown server, e.g. ${DEFAULT_SUNDOWN_URL}.`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new StdioStartError(`SUNDOWN_URL must be an http:// or https:// address, not ${JSON.stringify(url)}.`);
  }
  return { apiKey, baseUrl: `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}` };
}

/** GET /api/v1/me once before serving, so a wrong key or URL fails at start instead of on the first tool call. */
async function verifyStdioKey(source: SundownSource, baseUrl: string): Promise<Identity> {
  try {
    return await source.answer("identity", {});
  } catch (error) {
    if (error instanceof ApiError && error.code === "unauthorized") {
      throw new StdioStartError(
        `${baseUrl} rejected SUNDOWN_API_KEY: ${error.message} Create a new key under Settings → API keys.`,
      );
    }
    if (error instanceof ApiError && error.code === "rate_limited") {
      throw new StdioStartError(
        `${baseUrl} is rate-limiting this key right now: ${error.message} Try again in a minute.`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new StdioStartError(`could not verify SUNDOWN_API_KEY against ${baseUrl}: ${message}`);
  }
}

/** Starts the stdio server and resolves once it is serving; throws StdioStartError when it cannot start. */
export async function runStdioServer(): Promise<void> {
  // Anything printed with console.log would corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const settings = readStdioSettings();
  const source = createRestSource(settings);
  const identity = await verifyStdioKey(source, settings.baseUrl);
  // Both eras: a 2025 client's initialize pins the connection to one server; a 2026-07-28 client's requests
  // each carry their own envelope. Either way the same server definition answers.
  const handle = serveStdio(() => createSundownServer(source));
  // The client hanging up ends stdin: close the server so the process can exit.
  process.stdin.once("end", () => void handle.close());
  process.stderr.write(
    `sundown mcp: serving ${identity.organization.name} (scopes: ${identity.scopes.join(", ") || "none"}) from ${settings.baseUrl} over stdio\n`,
  );
}
