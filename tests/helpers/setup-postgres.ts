import { inject } from "vitest";
import { resetEnvCache } from "@/lib/env";

// Integration tests in this project run on a fresh PostgreSQL database made by global-postgres.ts.
process.env.DATABASE_URL = inject("databaseUrl");
resetEnvCache();
