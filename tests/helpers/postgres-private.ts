import pg from "pg";
import { getDbHandle, migratePostgres, openPostgres, useDbHandle } from "@/lib/db";
import { seedDemo } from "@/lib/demo/seed";
import { getEnv } from "@/lib/env";
import { withDatabase } from "./global-postgres";

/**
 * Gives the calling test file a database no other file writes to while it runs, and returns the
 * function that puts the shared one back. The embedded project already has one per worker, with files
 * run one after another; the postgres project shares one database between workers, so this makes a
 * fresh, seeded one on the same server.
 */
export async function usePrivateDatabase(): Promise<() => Promise<void>> {
  const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL;
  if (!getEnv().DATABASE_URL || !adminUrl) return async () => {};
  const previous = await getDbHandle();
  const name = `sundown_private_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = withDatabase(adminUrl, name);
  await migratePostgres(url);
  const handle = openPostgres(url, 2);
  await seedDemo(handle.client);
  useDbHandle(handle);
  return async () => {
    useDbHandle(previous);
    await handle.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
}
