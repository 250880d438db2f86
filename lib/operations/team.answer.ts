import { teamRead } from "@/lib/data/team";
import type { Answer } from "./answer";

// GET /api/v1/team and the list_team tool (lib/operations/team.ts): one read of the roster.

export const teamAnswer = { read: (input) => teamRead(input) } satisfies Answer<"team">;
