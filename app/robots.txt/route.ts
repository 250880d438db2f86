import { buildRobotsTxt } from "@/lib/discovery/robots-txt";
import { representationResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";

// GET /robots.txt – crawler rules and Content Signals: read and cite the public docs, do not train on them.
export const GET = withRequest(async (request) =>
  representationResponse(request, buildRobotsTxt(), "text/plain; charset=utf-8", { cache: "public" }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
