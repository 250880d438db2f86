import { operationRoute } from "@/lib/http/operation-route";

// GET /api/v1/briefing – one period's blockers with their age, silent streaks, slipping items, KPI trends and
// shipped work, for running a team.
export const GET = operationRoute("briefing");

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
