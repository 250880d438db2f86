import type { DbHandle } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";

// The demo organizations go only where they are asked for (issue 36: known default passwords have no place in
// production): `npm run dev` on the embedded database, so that a first `npm run dev` has something to sign in to
// and read, and any database when SUNDOWN_DEMO=1. Whoever opens the database at start-up (the server, the CLI)
// calls this; lib/db does not, since the database below every layer cannot import the demo above it.

const IS_EMPTY: Statement = {
  name: "demo-database-empty",
  text: "SELECT NOT EXISTS (SELECT 1 FROM organizations) AS empty",
};

/** Whether this start seeds the demo into an empty database: `npm run dev` (`next dev`) embedded, or SUNDOWN_DEMO. */
export function demoWanted(
  handle: DbHandle,
  { demo, underNextDev }: { demo: boolean; underNextDev: boolean },
): boolean {
  return demo || (underNextDev && handle.kind === "embedded");
}

/** Seeds the demo data into a database that holds no organization yet; anything else is left alone. */
export async function seedDemoOnFirstStart(handle: DbHandle): Promise<void> {
  // Asked in SQL first: the demo's modules (and Prisma's first query) load only for a database without data.
  const [row] = await handle.sql.rows<{ empty: boolean }>(IS_EMPTY, []);
  if (row?.empty) await (await import("./seed")).seedDemo(handle.client);
}
