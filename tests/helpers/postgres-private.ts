import { getDbHandle, openPostgres, installDbHandle } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createSeededDatabase } from "./seeded-postgres";

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
  const database = await createSeededDatabase(adminUrl, "sundown_private");
  const handle = openPostgres(database.url, 2);
  installDbHandle(handle);
  return async () => {
    installDbHandle(previous);
    await handle.close();
    await database.drop();
  };
}
