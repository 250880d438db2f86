import type { DbHandle } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";

// A new embedded database starts with the demo organizations, so that a first `npm run dev` has something to sign in
// to and read. Whoever opens the embedded database at start-up (the server, the CLI) calls this; lib/db does not,
// since the database below every layer cannot import the demo above it.

const IS_EMPTY: Statement = {
  name: "demo-database-empty",
  text: "SELECT NOT EXISTS (SELECT 1 FROM organizations) AS empty",
};

/** Seeds the demo data into an embedded database that holds no organization yet; anything else is left alone. */
export async function seedDemoOnFirstStart(handle: DbHandle): Promise<void> {
  if (handle.kind !== "embedded") return;
  // Asked in SQL first: the demo's modules (and Prisma's first query) load only for a database without data.
  const [row] = await handle.sql.rows<{ empty: boolean }>(IS_EMPTY, []);
  if (row?.empty) await (await import("./seed")).seedDemo(handle.client);
}
