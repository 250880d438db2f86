import { reportRead } from "@/lib/data/reports";
import type { Answer } from "./answer";

// GET /api/v1/reports/{id} and the get_report tool (lib/operations/get-report.ts): one read of the report.

export const getReportAnswer = { read: ({ id }) => reportRead.with(id) } satisfies Answer<"get_report">;
