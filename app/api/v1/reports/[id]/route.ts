import { getReportOrThrow } from "@/lib/data/reports";
import { parseReportId } from "@/lib/http/params";
import { withApiKey } from "@/lib/http/with-api-key";
import { reportSchema } from "@/lib/schemas/reports";

// GET /api/v1/reports/{id} – one report of the key's organization with its full structured content.
export const GET = withApiKey(
  async ({ key, params }) => getReportOrThrow(key.organization.id, parseReportId(params.id)),
  { scope: "reports:read", output: reportSchema },
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
