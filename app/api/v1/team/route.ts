import { operationRoute } from "@/lib/http/operation-route";

// GET /api/v1/team – the roster of the key's organization, without contact details.
export const GET = operationRoute("team");

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
