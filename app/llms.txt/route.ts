import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { routeBaseUrl } from "@/lib/http/base-url";
import { TEXT_CONTENT_TYPE } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /llms.txt – a short markdown guide for AI agents (llmstxt.org).
export const GET = withRequest(
  async (request, context) =>
    new Response(buildLlmsTxt(routeBaseUrl(request, context)), {
      headers: { "Content-Type": TEXT_CONTENT_TYPE, "Cache-Control": "public, max-age=300" },
    }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
