import type { TestProject } from "vitest/node";
import { createSeededDatabase } from "./seeded-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** A fresh database per run on the server at SUNDOWN_TEST_DATABASE_URL, migrated and seeded; dropped afterwards. */
export default async function setup(project: TestProject) {
  const database = await createSeededDatabase(process.env.SUNDOWN_TEST_DATABASE_URL!, "sundown_test");
  project.provide("databaseUrl", database.url);
  return () => database.drop();
}
