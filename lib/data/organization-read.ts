import type { z } from "zod";
import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";

// A read of one organization's data, written once as a SQL expression that builds a single JSON value.
// It runs either on its own (MCP, CLI) or inside the API key lookup (lib/data/key-lookup.ts), so a keyed
// REST request costs one database round trip: the key, its organization and the data in one statement.

/** The SQL placeholder ($n) of a read's argument of type T; cast it in the SQL where the type matters. */
export type Placeholder<T> = string & { readonly argument?: T };

/** Builds a read's SQL: the organization's id (an SQL expression of type uuid), then one placeholder per argument. */
type SqlBuilder<Args extends unknown[]> = (
  organizationId: string,
  ...args: { [I in keyof Args]: Placeholder<Args[I]> }
) => string;

export interface OrganizationRead<Args extends unknown[], Out> {
  /** Unique among reads: it names the prepared statements built from this read. */
  readonly name: string;
  /** This read with its arguments, to run on its own or inside the key lookup. */
  with(...args: Args): ReadRequest<Out>;
}

/** A read with its arguments. */
export interface ReadRequest<Out> {
  readonly name: string;
  readonly args: readonly unknown[];
  /** The read's SQL expression (a scalar subquery), its arguments at $first, $first+1, … */
  sqlAt(organizationId: string, first: number): string;
  /**
   * The database's JSON (NULL as null), checked against the read's schema, as the API's body; throws where
   * nothing found is an error (404).
   */
  toBody(json: unknown): Out;
  /** Runs the read on its own for one organization: the database's JSON, not yet checked. */
  fetchJson(organizationId: string): Promise<unknown>;
  /** Runs the read on its own for one organization. */
  run(organizationId: string): Promise<Out>;
}

export function defineRead<Args extends unknown[], Json, Out>(definition: {
  name: string;
  sql: SqlBuilder<Args>;
  /** The shape of the JSON the SQL builds: checked, not cast, before it becomes a body. */
  result: z.ZodType<Json>;
  /** The checked JSON (null when the SQL found nothing) as the API's body. */
  toBody: (json: Json | null) => Out;
}): OrganizationRead<Args, Out> {
  const standalone: Statement = {
    name: `read:${definition.name}`,
    text: `SELECT ${buildSql(definition.sql, "$1::uuid", 2)} AS data`,
  };
  const fetchJson = async (organizationId: string, args: readonly unknown[]) => {
    const [row] = await (await getSql()).rows<{ data: unknown }>(standalone, [organizationId, ...args]);
    return row?.data ?? null;
  };
  const toBody = (json: unknown) => definition.toBody(json === null ? null : definition.result.parse(json));
  return {
    name: definition.name,
    with: (...args) => ({
      name: definition.name,
      args,
      sqlAt: (organizationId, first) => buildSql(definition.sql, organizationId, first),
      toBody,
      fetchJson: (organizationId) => fetchJson(organizationId, args),
      run: async (organizationId) => toBody(await fetchJson(organizationId, args)),
    }),
  };
}

const MAX_ARGUMENTS = 16;

/**
 * A read's SQL with its arguments at $first, $first+1, …: the builder takes the placeholders it declares and
 * ignores the rest, and the statement is sent exactly the read's arguments.
 */
function buildSql<Args extends unknown[]>(sql: SqlBuilder<Args>, organizationId: string, first: number): string {
  const places = Array.from({ length: MAX_ARGUMENTS }, (_, i) => `$${first + i}`);
  return (sql as (organizationId: string, ...args: string[]) => string)(organizationId, ...places);
}
