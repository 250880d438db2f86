import type { VerifiedKey } from "@/lib/auth/verify-api-key";
import { requireScope } from "@/lib/auth/verify-api-key";
import { reportListRead, reportRead } from "@/lib/data/reports";
import { teamRead } from "@/lib/data/team";
import { parseReportId } from "@/lib/http/params";
import { READ_SCOPES, type SundownSource } from "./source";

/** The remote server's data: the same lib/data reads and scope guard as the REST routes, for one verified key. */
export function createDatabaseSource(key: VerifiedKey): SundownSource {
  const organizationId = key.organization.id;
  return {
    whoami: async () => ({ organization: key.organization, scopes: key.scopes }),
    listReports: async (limit) => {
      requireScope(key, READ_SCOPES.listReports);
      return reportListRead.run(organizationId, limit);
    },
    getReport: async (id) => {
      requireScope(key, READ_SCOPES.getReport);
      return reportRead.run(organizationId, parseReportId(id));
    },
    listTeam: async () => {
      requireScope(key, READ_SCOPES.listTeam);
      return teamRead.run(organizationId);
    },
  };
}
