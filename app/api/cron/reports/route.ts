import { withRequest } from "@/lib/http/with-request";
import { runGenerationCron } from "@/lib/http/cron/reports";

// GET /api/cron/reports – report generation on serverless platforms (Vercel Cron); see lib/http/cron/reports.ts.
export const GET = withRequest(runGenerationCron, { cors: false });

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
