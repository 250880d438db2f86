import type { Briefing } from "@/lib/schemas/briefing";
import { reportId, memberNamed } from "./example-ids";

/** The example answer the OpenAPI document shows. */
export const briefingExample: Briefing = {
  period: {
    since: "2026-11-16T00:00:00.000Z",
    until: "2026-11-22T23:59:59.999Z",
    time_zone: "UTC",
    reports: 14,
  },
  blockers: {
    items: [
      {
        text: "Staging database is out of disk",
        owner: "Priya Raman",
        member_id: memberNamed("Priya Raman"),
        first_reported_at: "2026-11-17T17:30:00.000Z",
        last_reported_at: "2026-11-21T17:30:00.000Z",
        days_open: 7,
        resolved: false,
        resolved_at: null,
        report_ids: [reportId(0), reportId(1)],
        report_count: 2,
      },
    ],
    count: 1,
    limit: 10,
    more: 0,
  },
  silent: {
    items: [
      {
        member: "Dev Patel",
        member_id: memberNamed("Dev Patel"),
        days: 2,
        since: "2026-11-20",
        reported_at: "2026-11-21T17:30:00.000Z",
        report_id: reportId(0),
      },
    ],
    count: 1,
    limit: 10,
    more: 0,
  },
  slipping: {
    items: [
      {
        owner: "Grace Kim",
        member_id: memberNamed("Grace Kim"),
        count: 1,
        items: [
          {
            text: "safety certification pack",
            days_late: 3,
            reason: "waiting on vendor parts",
            first_seen_at: "2026-11-18T17:30:00.000Z",
            last_seen_at: "2026-11-21T17:30:00.000Z",
          },
        ],
      },
    ],
    count: 1,
    limit: 10,
    more: 0,
  },
  kpis: {
    items: [
      {
        name: "Units shipped this week",
        value: 33,
        unit: "units",
        target: 40,
        status: "at_risk",
        reported_at: "2026-11-21T17:30:00.000Z",
        series: [
          { day: "2026-11-20", value: 36, status: "on_track" },
          { day: "2026-11-21", value: 33, status: "at_risk" },
        ],
        status_changes: [{ day: "2026-11-21", from: "on_track", to: "at_risk" }],
      },
    ],
    count: 1,
    limit: 10,
    more: 0,
  },
  shipped: {
    items: [
      {
        owner: "Aisha Khan",
        member_id: memberNamed("Aisha Khan"),
        count: 2,
        titles: ["gripper firmware 2.4", "pick-rate dashboard"],
      },
    ],
    count: 1,
    limit: 10,
    more: 0,
  },
};
