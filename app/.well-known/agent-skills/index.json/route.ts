import { buildAgentSkillsIndex } from "@/lib/discovery/agent-skills";
import { routeBaseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /.well-known/agent-skills/index.json – Agent Skills Discovery index: Sundown's skill and its digest.
export const GET = withRequest(async (request, context) =>
  jsonResponse(request, buildAgentSkillsIndex(routeBaseUrl(request, context)), { cache: "public" }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
