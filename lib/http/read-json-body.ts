import { ApiError } from "@/lib/errors";

/** Default cap for JSON request bodies (the MCP endpoint's JSON-RPC messages are small). */
const MAX_JSON_BODY_BYTES = 64 * 1024;

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body exceeds ${maxBytes} bytes.`);
}

/**
 * Reads a body as UTF-8 text, refusing with 413 as soon as it is known to exceed `maxBytes`: from Content-Length
 * when given, else while streaming, so an oversized body is never buffered whole.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^[0-9]+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/** Reads and parses a JSON body within `maxBytes` (readBodyText); a body that is not JSON is a 400 invalid_parameter. */
export async function readJsonBody(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_parameter", "The request body must be a JSON document.");
  }
}
