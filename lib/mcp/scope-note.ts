import type { Scope } from "@/lib/auth/scopes";
import { OPERATIONS } from "@/lib/operations/table";

// What a tool, resource or prompt says about the scope it needs, from the operations table's scope.

export const scopeNote = (scope: Scope) =>
  `Needs the ${scope} scope; without it the call returns an error naming the scope.`;

/** Resources and prompts read reports through list_reports and get_report, so they need those operations' scope. */
export const NEEDS_REPORTS_READ = `Needs ${OPERATIONS.list_reports.scope}.`;
