import { reportListRead } from "@/lib/data/reports";
import { parseListReportsQuery } from "@/lib/http/params";
import { withKeyedRead } from "@/lib/http/with-api-key";
import { reportListSchema } from "@/lib/schemas/reports";

// GET /api/v1/reports – recent report summaries of the key's organization, most recent first.
export const GET = withKeyedRead(({ url }) => reportListRead.bind(parseListReportsQuery(url.searchParams).limit), {
  scope: "reports:read",
  output: reportListSchema,
});

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
