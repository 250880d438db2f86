import { OPERATIONS, type KeyedOperationName, type OperationOutput } from "@/lib/operations/table";
import { prefersMarkdown } from "./accept";
import { admitRequest } from "./admit-request";
import { routeBaseUrl } from "./base-url";
import { jsonResponse, MARKDOWN_CONTENT_TYPE, representationResponse } from "./responses";
import { withRequest, type RequestContext } from "./with-request";

/**
 * The GET handler of a keyed operation of the table (lib/operations/table.ts): admission and the answer
 * (lib/admission/admit.ts), in the contract's order, key → rate limit → scope → parameters → existence, in one
 * database round trip.
 */
export function operationRoute<N extends KeyedOperationName>(name: N) {
  const operation = OPERATIONS[name];
  const markdown = operation.markdown as ((output: OperationOutput<N>) => string) | undefined;
  return withRequest(async (request, context) => {
    const call = { name, query: context.url.searchParams, path: context.params };
    const { answer } = await admitRequest(request, context, call);
    if (!answer || "refused" in answer) throw answer?.refused;
    const body = answer.output;
    // The output schema parses every body: a second whitelist on what leaves the service.
    const output = operation.output.parse(body);
    // The link's Vary (the Host it was built from) goes to the context, which withRequest merges with this one.
    const headers = nextPageLink(request, context, output);
    if (!markdown) return jsonResponse(request, output, { cache: "private", headers });
    // Errors stay JSON (the contract's one error shape); only the answer itself is negotiated.
    const options = { cache: "private" as const, headers: { ...headers, Vary: "Accept" } };
    return prefersMarkdown(request.headers.get("accept"))
      ? representationResponse(request, markdown(output as OperationOutput<N>), MARKDOWN_CONTENT_TYPE, options)
      : jsonResponse(request, output, options);
  });
}

/** RFC 8288: a page that has a next one links to it, the same request with the new cursor. */
function nextPageLink(request: Request, context: RequestContext, output: unknown): Record<string, string> {
  const cursor = (output as { next_cursor?: unknown }).next_cursor;
  if (typeof cursor !== "string") return {};
  const next = new URL(`${routeBaseUrl(request, context)}${context.url.pathname}`);
  next.search = context.url.search;
  next.searchParams.set("cursor", cursor);
  return { Link: `<${next.href}>; rel="next"` };
}
