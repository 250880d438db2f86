import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";

// A read of one organization's data, written once as a SQL expression that yields a single JSON value.
// It runs either on its own (MCP, CLI) or inside the API key lookup (lib/data/key-lookup.ts), so a keyed
// REST request costs one database round trip: the key, its organization and the data in one statement.

/** Where a read's SQL finds the organization's id and its own arguments. */
export interface ReadPlaceholders {
  /** An SQL expression of type uuid. */
  organizationId: string;
  /** The placeholder of the read's i-th argument (from 0); cast it in the SQL where the type matters. */
  arg(index: number): string;
}

export interface OrganizationRead<Args extends unknown[], Out> {
  /** Unique among reads: it names the prepared statements built from this read. */
  readonly name: string;
  /** One SQL expression (a scalar subquery) yielding json, or NULL when there is nothing. */
  readonly json: (placeholders: ReadPlaceholders) => string;
  /** The database's JSON as the API's body (scrubbed); throws where nothing found is an error (404). */
  readonly shape: (json: unknown) => Out;
  /** This read with its arguments, to run later (e.g. inside the key lookup). */
  bind(...args: Args): BoundRead<Out>;
  /** Runs the read on its own for one organization. */
  run(organizationId: string, ...args: Args): Promise<Out>;
}

export interface BoundRead<Out> {
  readonly read: Pick<OrganizationRead<never, Out>, "name" | "json" | "shape">;
  readonly args: readonly unknown[];
  /** Runs the read on its own for one organization: the database's JSON, not yet shaped. */
  select(organizationId: string): Promise<unknown>;
}

export function defineRead<Args extends unknown[], Out>(definition: {
  name: string;
  json: (placeholders: ReadPlaceholders) => string;
  shape: (json: unknown) => Out;
}): OrganizationRead<Args, Out> {
  const standalone: Statement = {
    name: `read:${definition.name}`,
    text: `SELECT ${definition.json({ organizationId: "$1::uuid", arg: (i) => `$${i + 2}` })} AS data`,
  };
  const select = async (organizationId: string, args: readonly unknown[]) => {
    const [row] = await (await getSql()).rows<{ data: unknown }>(standalone, [organizationId, ...args]);
    return row?.data ?? null;
  };
  const read: OrganizationRead<Args, Out> = {
    ...definition,
    bind: (...args) => ({ read, args, select: (organizationId) => select(organizationId, args) }),
    run: async (organizationId, ...args) => definition.shape(await select(organizationId, args)),
  };
  return read;
}
