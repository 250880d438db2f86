import pg from "pg";
import { migratePostgres, openPostgres } from "@/lib/db";
import { seedDemo } from "@/lib/demo/seed";

export interface SeededDatabase {
  name: string;
  url: string;
  /** Drops the database, closing whatever connections are still open to it. */
  drop(): Promise<void>;
}

/** A new database on the server at `adminUrl`, migrated and seeded with the demo data. */
export async function createSeededDatabase(adminUrl: string, prefix: string): Promise<SeededDatabase> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = withDatabase(adminUrl, name);
  await migratePostgres(url);
  const handle = openPostgres(url, 2);
  await seedDemo(handle.client);
  await handle.close();
  return {
    name,
    url,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** The same server (or pooler) as `url`, another database on it. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
