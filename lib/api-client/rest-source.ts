import type { z } from "zod";
import { API_VERSION } from "@/lib/api-version";
import type { OperationSource } from "@/lib/digests/source";
import { ApiError, errorCodeForStatus } from "@/lib/errors";
import { restPathOf } from "@/lib/operations/input";
import { OPERATIONS, type KeyedOperationName, type OperationInput, type OperationOutput } from "@/lib/operations/table";
import { errorSchema } from "@/lib/schemas/common";
import { RETRY_AFTER_HEADER } from "@/lib/header-names";

// The operations answered by a running Sundown's REST API (the stdio MCP server's data), so the same keys, scopes and
// rate limit apply as for any other client. REST error bodies come back as the same ApiError the server throws, so a
// surface built on this source reports failures as one built on the database does.

export interface RestSourceOptions {
  /** Base URL of the Sundown server, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

export function createRestSource({
  baseUrl,
  apiKey,
  fetch: fetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: RestSourceOptions): OperationSource {
  async function get<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, {
        headers: {
          Authorization: `Bearer ${apiKey}`,
          Accept: "application/json",
          "User-Agent": `sundown-mcp-stdio/${API_VERSION}`,
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ApiError(
        "service_unavailable",
        `Cannot reach Sundown at ${baseUrl}. Is the server running and SUNDOWN_URL right?`,
        {
          cause: error,
        },
      );
    }
    const body = await readJson(response);
    if (!response.ok) {
      const parsed = errorSchema.safeParse(body);
      const retryAfter = response.headers.get(RETRY_AFTER_HEADER);
      throw new ApiError(
        parsed.success ? parsed.data.error : errorCodeForStatus(response.status),
        parsed.success && parsed.data.message ? parsed.data.message : `Sundown answered HTTP ${response.status}.`,
        {
          requiredScope: parsed.success ? parsed.data.required_scope : undefined,
          headers: retryAfter && /^[0-9]+$/.test(retryAfter) ? { [RETRY_AFTER_HEADER]: retryAfter } : {},
        },
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ApiError(
        "internal_error",
        `Sundown at ${baseUrl} answered ${path} with an unexpected body; is SUNDOWN_URL a Sundown server?`,
        {
          cause: parsed.error,
        },
      );
    }
    return parsed.data;
  }

  const answer = <N extends KeyedOperationName>(name: N, input: OperationInput<N>) => {
    const operation = OPERATIONS[name];
    return get(restPathOf(operation, input), operation.output) as Promise<OperationOutput<N>>;
  };
  let timeZone: Promise<string | undefined> | undefined;
  return {
    answer,
    // The REST API states the organization's zone in the briefing's period: asked once, the smallest briefing.
    timeZone: () =>
      (timeZone ??= answer("briefing", { limit: 1 }).then(
        (briefing) => briefing.period.time_zone,
        () => undefined,
      )),
  };
}
