import { buildLlmsFullTxt } from "@/lib/discovery/llms-full-txt";
import { routeBaseUrl } from "@/lib/http/base-url";
import { representationResponse, TEXT_CONTENT_TYPE } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /llms-full.txt – the whole guide and reference in one markdown file, served as plain text like llms.txt.
export const GET = withRequest(async (request, context) =>
  representationResponse(request, buildLlmsFullTxt(routeBaseUrl(request, context)), TEXT_CONTENT_TYPE, {
    cache: "public",
  }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
