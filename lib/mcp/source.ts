import type { Scope } from "@/lib/auth/scopes";
import type { Identity } from "@/lib/schemas/identity";
import type { Report, ReportList } from "@/lib/schemas/reports";
import type { TeamList } from "@/lib/schemas/team";

/**
 * Where the MCP tools, resources and prompt get their data. The remote server reads the database for the
 * calling key; the stdio server calls the REST API. Either way a read the key may not do throws an
 * ApiError (insufficient_scope, not_found, rate_limited…) that the MCP layer turns into a tool error.
 */
export interface SundownSource {
  whoami(): Promise<Identity>;
  listReports(limit: number): Promise<ReportList>;
  getReport(id: string): Promise<Report>;
  listTeam(): Promise<TeamList>;
}

/** The scope each read needs: the same as its REST twin's. */
export const READ_SCOPES = {
  whoami: undefined,
  listReports: "reports:read",
  getReport: "reports:read",
  listTeam: "team:read",
} as const satisfies Record<keyof SundownSource, Scope | undefined>;
