import { operationRoute } from "@/lib/http/operation-route";

// GET /api/v1/reports/{id} – one report of the key's organization with its full structured content.
export const GET = operationRoute("get_report");

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
