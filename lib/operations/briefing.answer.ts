import { briefingRead } from "@/lib/data/briefing";
import type { Answer } from "./answer";

// GET /api/v1/briefing and the get_briefing tool (lib/operations/briefing.ts): one read of the period.

export const briefingAnswer = { read: (input) => briefingRead(input) } satisfies Answer<"briefing">;
