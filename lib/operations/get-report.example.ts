import type { Report } from "@/lib/schemas/reports";
import { reportId, memberNamed } from "./example-ids";

/** The example answer the OpenAPI document shows. */
export const reportExample: Report = {
  id: reportId(0),
  scope: "org",
  scope_target_id: null,
  generated_at: "2026-11-21T17:30:00.000Z",
  report: {
    headline: "Acme Robotics: 2 shipped, 1 slipping, 1 blocker",
    kpi_status: [
      { name: "Pick success rate", value: 96.9, unit: "%", target: 98, status: "at_risk" },
      { name: "Units shipped this week", value: 33, unit: "units", target: 40, status: "at_risk" },
      { name: "Open P1 bugs", value: 2, unit: "bugs", target: 0, status: "off_track" },
    ],
    shipped: [
      { title: "Released gripper firmware 2.3", owner: "Dev Patel", member_id: memberNamed("Dev Patel") },
      { title: "Deployed fleet dashboard", owner: "Aisha Khan", member_id: memberNamed("Aisha Khan") },
    ],
    silent: [{ member: "Ben Okafor", member_id: memberNamed("Ben Okafor"), days_silent: 2 }],
    slipping: [
      {
        item: "warehouse pilot with Northwind",
        owner: "Sofia Alvarez",
        days_late: 3,
        reason: "waiting on vendor parts",
      },
    ],
    blockers: [{ description: "Legal review of the pilot contract", owner: "Maya Chen", since_days: 2 }],
  },
};
