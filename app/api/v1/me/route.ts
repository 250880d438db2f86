import { operationRoute } from "@/lib/http/operation-route";

// GET /api/v1/me – the calling key's organization and scopes; verifies any valid key.
export const GET = operationRoute("identity");

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
