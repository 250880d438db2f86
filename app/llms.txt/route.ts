import { buildLlmsTxt } from "@/lib/discovery/llms-txt";
import { routeBaseUrl } from "@/lib/http/base-url";
import { withRequest } from "@/lib/http/with-request";

// GET /llms.txt – a short markdown guide for AI agents (llmstxt.org).
export const GET = withRequest(
  async (request, context) =>
    new Response(buildLlmsTxt(routeBaseUrl(request, context)), {
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" },
    }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
