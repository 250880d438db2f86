import { buildLlmsFullTxt } from "@/lib/discovery/llms-full-txt";
import { routeBaseUrl } from "@/lib/http/base-url";
import { MARKDOWN_CONTENT_TYPE, representationResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /docs.md – the /docs guide as markdown; proxy.ts also serves it for /docs and / to Accept: text/markdown.
// Vary: Accept is said here, because Next replaces the Vary of a page (and of proxy.ts) with its own: this way
// a shared cache never hands the markdown answered for / to a browser.
export const GET = withRequest(async (request, context) =>
  representationResponse(request, buildLlmsFullTxt(routeBaseUrl(request, context)), MARKDOWN_CONTENT_TYPE, {
    cache: "public",
    headers: { Vary: "Accept" },
  }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
