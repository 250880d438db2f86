import pg from "pg";
import type { TestProject } from "vitest/node";
import { migratePostgres, openPostgres } from "@/lib/db";
import { seedDemo } from "@/lib/demo/seed";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** A fresh database per run on the server at SUNDOWN_TEST_DATABASE_URL, migrated and seeded; dropped afterwards. */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.SUNDOWN_TEST_DATABASE_URL!;
  const name = `sundown_test_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = withDatabase(adminUrl, name);
  await migratePostgres(url);
  const handle = openPostgres(url, 2);
  await seedDemo(handle.client);
  await handle.close();
  project.provide("databaseUrl", url);
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
