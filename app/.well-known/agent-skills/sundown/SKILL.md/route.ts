import { buildSkillMd } from "@/lib/discovery/agent-skills";
import { routeBaseUrl } from "@/lib/http/base-url";
import { MARKDOWN_CONTENT_TYPE, representationResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /.well-known/agent-skills/sundown/SKILL.md – the skill the index names, byte for byte what its digest covers.
export const GET = withRequest(async (request, context) =>
  representationResponse(request, buildSkillMd(routeBaseUrl(request, context)), MARKDOWN_CONTENT_TYPE, {
    cache: "public",
  }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
