import { DEMO_ORGANIZATIONS } from "@/lib/demo/data";
import type { KeyedOperationName, OperationOutput } from "@/lib/operations/table";
import type { Briefing } from "@/lib/schemas/briefing";
import type { Identity } from "@/lib/schemas/identity";
import type { Report, ReportList } from "@/lib/schemas/reports";
import type { TeamList } from "@/lib/schemas/team";

// Examples for the OpenAPI document, shaped like the demo organization "Acme Robotics" (lib/demo).
// Ids are fixed so the document is stable; tests parse every example with the runtime schemas.

const acme = DEMO_ORGANIZATIONS[0]!;

/** A stable, valid v4 UUID per example entity, e.g. exampleId(1, 3) for the third member. */
function exampleId(kind: number, n: number): string {
  const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
  return `${hex(0x5d0e0000 + kind, 8)}-${hex(n, 4)}-4${hex(kind, 3)}-8${hex(n, 3)}-${hex(0xac3e, 12)}`;
}

const memberId = (index: number) => exampleId(2, index + 1);
const reportId = (index: number) => exampleId(3, index + 1);
const memberNamed = (name: string) => memberId(acme.members.findIndex((m) => m.name === name));

const EXAMPLE_ORGANIZATION_ID = exampleId(1, 1);

const identityExample: Identity = {
  organization: { id: EXAMPLE_ORGANIZATION_ID, name: acme.name },
  scopes: ["reports:read", "team:read"],
};

const reportListExample: ReportList = {
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

export const teamListExample: TeamList = {
  members: acme.members.map((m, index) => ({
    id: memberId(index),
    name: m.name,
    role: m.role,
    department: m.department,
    is_external: m.isExternal ?? false,
    active: m.active ?? true,
  })),
  count: acme.members.length,
};

const briefingExample: Briefing = {
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

/** The example answer of each keyed operation, as the OpenAPI document shows it. */
export const OPERATION_EXAMPLES: { [N in KeyedOperationName]: OperationOutput<N> } = {
  identity: identityExample,
  list_reports: reportListExample,
  get_report: reportExample,
  briefing: briefingExample,
  team: teamListExample,
};
