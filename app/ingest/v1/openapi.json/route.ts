import { routeBaseUrl } from "@/lib/http/base-url";
import { jsonResponse } from "@/lib/http/responses";
import { withRequest } from "@/lib/http/with-request";
import { buildIngestOpenApiDocument } from "@/lib/openapi/ingest-document";

// GET /ingest/v1/openapi.json – the ingest surface's OpenAPI 3.1 description, apart from the agents' /openapi.json.
export const GET = withRequest(async (request, context) =>
  jsonResponse(request, buildIngestOpenApiDocument(routeBaseUrl(request, context)), { cache: "public" }),
);

export {
  ingestDocumentMethodNotAllowed as POST,
  ingestDocumentMethodNotAllowed as PUT,
  ingestDocumentMethodNotAllowed as PATCH,
  ingestDocumentMethodNotAllowed as DELETE,
} from "@/lib/ingest/route";
