import { z } from "zod";
import { isWellFormedApiKey } from "@/lib/auth/api-key";

// A client of the REST API reads the client's two settings, SUNDOWN_API_KEY and SUNDOWN_URL, from its own
// environment; getEnv() describes the server's.

export const DEFAULT_SUNDOWN_URL = "http://localhost:3000";

/**
 * A client setting the user must fix (missing, malformed, or refused by the server); the message says what and how,
 * on one line. `sundown mcp` (the CLI's and the published package's) is the client that starts on these settings, so
 * the message names it.
 */
export class ClientSettingsError extends Error {
  constructor(message: string) {
    super(`sundown mcp: ${message}`);
    this.name = "ClientSettingsError";
  }
}

const clientSettingsSchema = z.object({
  SUNDOWN_API_KEY: z.string().trim().optional(),
  SUNDOWN_URL: z.string().trim().optional(),
});

export interface ClientSettings {
  apiKey: string;
  /** The server's address, without a trailing slash. */
  baseUrl: string;
}

export function readClientSettings(env: Record<string, string | undefined> = process.env): ClientSettings {
  const { SUNDOWN_API_KEY: apiKey, SUNDOWN_URL: rawUrl } = clientSettingsSchema.parse(env);
  if (!apiKey) {
    throw new ClientSettingsError(
      "SUNDOWN_API_KEY is not set. Create a key in Sundown under Settings → API keys (or `npx sundown keys create --org <slug> --name <name> --scopes reports:read,team:read`) and put it in the env of your MCP client's config.",
    );
  }
  if (!isWellFormedApiKey(apiKey)) {
    throw new ClientSettingsError(
      "SUNDOWN_API_KEY is not a Sundown API key (they start with sdn_sk_ and carry a checksum); copy it again from the settings page.",
    );
  }
  const url = rawUrl || DEFAULT_SUNDOWN_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ClientSettingsError(
      `SUNDOWN_URL is not a URL: ${JSON.stringify(url)}. Use the address of your Sundown server, e.g. ${DEFAULT_SUNDOWN_URL}.`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ClientSettingsError(`SUNDOWN_URL must be an http:// or https:// address, not ${JSON.stringify(url)}.`);
  }
  return { apiKey, baseUrl: `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}` };
}
