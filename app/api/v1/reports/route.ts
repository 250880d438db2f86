import { operationRoute } from "@/lib/http/operation-route";

// GET /api/v1/reports – recent report summaries of the key's organization, most recent first.
export const GET = operationRoute("list_reports");

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
