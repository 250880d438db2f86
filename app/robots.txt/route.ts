import { buildRobotsTxt } from "@/lib/discovery/robots-txt";
import { representationResponse, TEXT_CONTENT_TYPE } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /robots.txt – crawler rules and Content Signals: read and cite the public docs, do not train on them.
export const GET = withRequest(async (request) =>
  representationResponse(request, buildRobotsTxt(), TEXT_CONTENT_TYPE, { cache: "public" }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
