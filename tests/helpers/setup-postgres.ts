import { inject } from "vitest";
import { getDbHandle } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";

// Integration tests in this project run on a fresh PostgreSQL database made by global-postgres.ts.
process.env.DATABASE_URL = inject("databaseUrl");
resetEnvCache();
// As the server does at start (lib/server/start.ts): through a pooler (.ci/run runs this project through
// PgBouncer as well), statements are sent unnamed from the first request on.
await (await getDbHandle()).detectPooler();
