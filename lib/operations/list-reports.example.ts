import type { ReportList } from "@/lib/schemas/reports";
import { reportId, memberNamed } from "./example-ids";

/** The example answer the OpenAPI document shows. */
export const reportListExample: ReportList = {
  reports: [
    {
      id: reportId(0),
      scope: "org",
      scope_target_id: null,
      generated_at: "2026-11-21T17:30:00.000Z",
      headline: "Acme Robotics: 2 shipped, 1 slipping, 1 blocker",
    },
    {
      id: reportId(1),
      scope: "lead",
      scope_target_id: memberNamed("Dev Patel"),
      generated_at: "2026-11-21T17:20:00.000Z",
      headline: "Dev Patel: 1 shipped, 1 slipping, 0 blockers",
    },
    {
      id: reportId(2),
      scope: "member",
      scope_target_id: memberNamed("Aisha Khan"),
      generated_at: "2026-11-20T17:10:00.000Z",
      headline: "Aisha Khan: 1 shipped, 0 slipping, 0 blockers, 1 silent",
    },
  ],
  count: 3,
  next_cursor: "WzEsIjVkMGUwMDAxLTAwMDEtNDAwMS04MDAxLTAwMDAwMDAwYWMzZSJd.q3lQ8bN2cVxw0aHkR1m5fA",
};
