import { reportRead } from "@/lib/data/reports";
import { parseReportId } from "@/lib/http/params";
import { withKeyedRead } from "@/lib/http/with-api-key";
import { reportSchema } from "@/lib/schemas/reports";

// GET /api/v1/reports/{id} – one report of the key's organization with its full structured content.
export const GET = withKeyedRead(({ params }) => reportRead.bind(parseReportId(params.id)), {
  scope: "reports:read",
  output: reportSchema,
});

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
