import { resetEnvCache } from "@/lib/env";

// Integration tests in this project run on an in-memory embedded database, migrated and seeded with
// the demo data on first use, shared by the test files of one worker.
delete process.env.DATABASE_URL;
process.env.SUNDOWN_DATA_DIR = "memory://";
resetEnvCache();
