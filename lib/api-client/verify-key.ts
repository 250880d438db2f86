import type { OperationSource } from "@/lib/digests/source";
import { ApiError } from "@/lib/errors";
import type { Identity } from "@/lib/schemas/identity";
import { ClientSettingsError } from "./settings";

/** GET /api/v1/me once before serving, so a wrong key or URL fails at start instead of on the first call. */
export async function verifyClientKey(source: OperationSource, baseUrl: string): Promise<Identity> {
  try {
    return await source.answer("identity", {});
  } catch (error) {
    if (error instanceof ApiError && error.code === "unauthorized") {
      throw new ClientSettingsError(
        `${baseUrl} rejected SUNDOWN_API_KEY: ${error.message} Create a new key under Settings → API keys.`,
      );
    }
    if (error instanceof ApiError && error.code === "rate_limited") {
      throw new ClientSettingsError(
        `${baseUrl} is rate-limiting this key right now: ${error.message} Try again in a minute.`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new ClientSettingsError(`could not verify SUNDOWN_API_KEY against ${baseUrl}: ${message}`);
  }
}
