import { getDbHandle } from "@/lib/db";
import { seedDemoOnFirstStart } from "@/lib/demo/first-start";
import { resetEnvCache } from "@/lib/env";

// Integration tests in this project run on an in-memory embedded database, migrated on first use and seeded with
// the demo data here, as the server seeds it at start-up, shared by the test files of one worker.
delete process.env.DATABASE_URL;
process.env.SUNDOWN_DATA_DIR = "memory://";
resetEnvCache();
await seedDemoOnFirstStart(await getDbHandle());
