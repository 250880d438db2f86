import { teamRead } from "@/lib/data/team";
import { withKeyedRead } from "@/lib/http/with-api-key";
import { teamListSchema } from "@/lib/schemas/team";

// GET /api/v1/team – the roster of the key's organization, without contact details.
export const GET = withKeyedRead(() => teamRead.bind(), { scope: "team:read", output: teamListSchema });

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
