import { withRequest } from "@/lib/http/with-request";
import { runDeliveryCron } from "@/lib/http/cron/webhooks";

// GET /api/cron/webhooks – webhook retries on serverless platforms (Vercel Cron); see lib/http/cron/webhooks.ts.
export const GET = withRequest(runDeliveryCron, { cors: false });

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
