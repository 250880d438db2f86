import { ApiError } from "@/lib/errors";
import { mayBeServerAction } from "./cross-site-action";

// A server-action POST whose body Next cannot decode makes it answer 500 (text/x-component, an error digest, its own
// stack on stderr): Next decodes the body before any code of ours runs and treats every failure as the action's.
// So the proxy reads it first (Next hands the proxy a copy of the body and the action the original) and refuses what
// no page of ours sends: a body over Next's limit, a multipart form that does not parse, or an argument list that is
// not a form's. Every server action of Sundown's is a form action (useActionState: the previous state, then the
// form's FormData), so React always sends it as multipart, its argument list (the field "0") a JSON array ending in
// the reference to the form's fields ("$K1"). An action given anything else would be handed arguments it cannot use.

/** Next's serverActions.bodySizeLimit by default (next.config.ts does not change it). */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** React's reference to a FormData argument, whose fields travel under the prefix `_<id>_`. */
const FORM_DATA_REFERENCE = /^\$K[0-9a-f]+$/;

const unreadable = () =>
  new ApiError(
    "invalid_parameter",
    "The form's request body could not be read. Reload the page and submit the form again.",
  );

/** Whether `text` is a form action's argument list as React encodes it: a JSON array ending in a FormData reference. */
function isFormArguments(text: string): boolean {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return false;
  }
  const last: unknown = Array.isArray(list) ? list.at(-1) : undefined;
  return typeof last === "string" && FORM_DATA_REFERENCE.test(last);
}

/** Why a server-action request's body is refused before Next decodes it; undefined for any other request. */
export async function serverActionBodyRefusal(request: Request): Promise<ApiError | undefined> {
  if (!mayBeServerAction(request)) return undefined;
  const body = await request.arrayBuffer();
  if (body.byteLength > BODY_LIMIT_BYTES) {
    return new ApiError("payload_too_large", `A form's request body may be at most ${BODY_LIMIT_BYTES} bytes.`);
  }
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) return unreadable();
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return unreadable();
  }
  // Without JavaScript a form posts its fields only, which Next reads itself.
  if (!request.headers.has("next-action")) return undefined;
  const list = form.get("0");
  return typeof list === "string" && isFormArguments(list) ? undefined : unreadable();
}
