import { ApiError } from "@/lib/errors";
import { mayBeServerAction } from "./cross-site-action";

// A server-action POST whose body Next cannot decode makes it answer 500 (text/x-component, an error digest, its own
// stack on stderr): Next decodes the body before any code of ours runs and treats every failure as the action's.
// So the proxy reads it first (Next hands the proxy a copy of the body and the action the original) and refuses what
// no page of ours sends: a body over Next's limit, a multipart form that does not parse, or a reply that is not
// React's encoding of an argument list (a JSON array: the body itself, or the multipart field "0").

/** Next's serverActions.bodySizeLimit by default (next.config.ts does not change it). */
const BODY_LIMIT_BYTES = 1024 * 1024;

const unreadable = () =>
  new ApiError(
    "invalid_parameter",
    "The form's request body could not be read. Reload the page and submit the form again.",
  );

function isJsonArray(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

/** Why a server-action request's body is refused before Next decodes it; undefined for any other request. */
export async function serverActionBodyRefusal(request: Request): Promise<ApiError | undefined> {
  if (!mayBeServerAction(request)) return undefined;
  const body = await request.arrayBuffer();
  if (body.byteLength > BODY_LIMIT_BYTES) {
    return new ApiError("payload_too_large", `A form's request body may be at most ${BODY_LIMIT_BYTES} bytes.`);
  }
  const contentType = request.headers.get("content-type") ?? "";
  const fromJavaScript = request.headers.has("next-action");
  if (contentType.toLowerCase().startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
    } catch {
      return unreadable();
    }
    // Without JavaScript a form posts its fields only, which Next reads itself.
    if (!fromJavaScript) return undefined;
    const root = form.get("0");
    return typeof root === "string" && isJsonArray(root) ? undefined : unreadable();
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return unreadable();
  }
  return isJsonArray(text) ? undefined : unreadable();
}
