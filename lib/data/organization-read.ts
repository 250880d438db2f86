import { z } from "zod";
import { getSql } from "@/lib/db";
import type { Statement } from "@/lib/db/sql";
import { contactsFor, contactsJsonSchema, contactsSql, contactsUnheld, heldContacts } from "./held-contacts";
import type { KnownContacts } from "./known-contact-matcher";
import { knownContactsOf } from "./known-contacts";

// A read of one organization's data, written once as a SQL expression that builds a single JSON value.
// It runs either on its own (MCP, CLI) or inside the API key lookup (lib/data/key-lookup.ts), so a keyed
// REST request costs one database round trip: the key, its organization and the data in one statement.
//
// An argument may be optional (a filter): absent, its placeholder is undefined and the SQL leaves its condition
// out. Each combination of present arguments is its own prepared statement, so PostgreSQL plans every one for
// the conditions it really has and can use the index that fits them.

/** The SQL placeholder ($n) of a read's argument of type T; cast it in the SQL where the type matters. */
export type Placeholder<T> = string & { readonly argument?: T };

/** An argument's placeholder as the SQL builder gets it: undefined when an optional argument is absent. */
type Slot<T> = undefined extends T ? Placeholder<Exclude<T, undefined>> | undefined : Placeholder<T>;

/** Builds a read's SQL: the organization's id (an SQL expression of type uuid), then one slot per argument. */
type SqlBuilder<Args extends unknown[]> = (
  organizationId: string,
  ...args: { [I in keyof Args]: Slot<Args[I]> }
) => string;

export interface OrganizationRead<Args extends unknown[], Out> {
  /** Unique among reads: it names the prepared statements built from this read. */
  readonly name: string;
  /** This read with its arguments, to run on its own or inside the key lookup. */
  with(...args: Args): ReadRequest<Out>;
}

/** A read with its arguments. */
export interface ReadRequest<Out> {
  /** Names the statements of this read with these arguments present. */
  readonly name: string;
  /** Its statements are planned for their values on every run (lib/db/sql.ts, Statement.planEachRun). */
  readonly planEachRun: boolean;
  /** The values of the present arguments, in order. */
  readonly args: readonly unknown[];
  /**
   * The read's SQL expression (a scalar subquery), its present arguments at $first, $first+1, … `organizationRow`
   * names the organization's row where the statement has joined it already (the key lookup): its columns are
   * read from there, not looked up again.
   */
  sqlAt(organizationId: string, first: number, organizationRow?: string): string;
  /**
   * The database's JSON (NULL as null), checked against the read's schema, as the API's body; throws where
   * nothing found is an error (404).
   */
  toBody(json: unknown): Out;
  /**
   * The same read bringing the members' contact details, when `json` (its answer, as the database sent it) names
   * a contacts version this process does not hold; undefined when toBody can serve the answer as it is.
   */
  withContactsFor(json: unknown): ReadRequest<Out> | undefined;
  /** Runs the read on its own for one organization: the database's JSON, not yet checked. */
  fetchJson(organizationId: string): Promise<unknown>;
  /** Runs the read on its own for one organization. */
  run(organizationId: string): Promise<Out>;
}

interface ReadDefinition<Args extends unknown[], Json, Out, Contacts> {
  name: string;
  sql: SqlBuilder<Args>;
  /** The shape of the JSON the SQL builds: checked, not cast, before it becomes a body. */
  result: z.ZodType<Json>;
  /**
   * For arguments whose values change the best plan: statements with them are planned on every run, not once
   * (a full-text search's words; see Statement.planEachRun).
   */
  planEachRunWith?: (args: NoInfer<Args>) => boolean;
  /** The checked JSON (null when the SQL found nothing) as the API's body, given the read's arguments. */
  toBody: (json: Json | null, args: NoInfer<Args>, contacts: Contacts) => Out;
}

export function defineRead<Args extends unknown[], Json, Out>(
  definition: ReadDefinition<Args, Json, Out, undefined>,
): OrganizationRead<Args, Out> {
  return define(definition, false);
}

/**
 * A read that serves the organization's own text, which is scrubbed of its members' contact details: the same
 * statement brings their version, and is run once more with the details when this process does not hold that
 * version (lib/data/held-contacts.ts).
 */
export function defineScrubbedRead<Args extends unknown[], Json, Out>(
  definition: ReadDefinition<Args, Json, Out, KnownContacts>,
): OrganizationRead<Args, Out> {
  return define(definition, true);
}

const scrubbedJsonSchema = z.object({ data: z.unknown(), contacts: contactsJsonSchema });

function define<Args extends unknown[], Json, Out, Contacts extends KnownContacts | undefined>(
  definition: ReadDefinition<Args, Json, Out, Contacts>,
  scrubbed: boolean,
): OrganizationRead<Args, Out> {
  const standalone = new Map<string, Statement>();
  const parse = (json: unknown) => (json === null || json === undefined ? null : definition.result.parse(json));
  return {
    name: definition.name,
    with: (...args) => {
      const present = args.map((arg) => arg !== undefined);
      const name = present.every(Boolean) ? definition.name : `${definition.name}:${present.map(Number).join("")}`;
      const values = args.filter((arg) => arg !== undefined);
      const held = scrubbed ? heldContacts() : undefined;
      const planEachRun = definition.planEachRunWith?.(args) ?? false;
      const toBody = (json: unknown) => {
        if (!held) return definition.toBody(parse(json), args, undefined as Contacts);
        if (json === null) return definition.toBody(null, args, knownContactsOf(null) as Contacts);
        const { data, contacts } = scrubbedJsonSchema.parse(json);
        return definition.toBody(parse(data), args, contactsFor(held, contacts) as Contacts);
      };
      const request = (withMembers: boolean): ReadRequest<Out> => {
        const requestName = withMembers ? `${name}+contacts` : name;
        const sqlAt = (organizationId: string, first: number, organizationRow?: string) => {
          const sql = buildSql(definition.sql, organizationId, first, present);
          if (!held) return sql;
          const contacts = contactsSql(organizationId, withMembers, organizationRow);
          return `json_build_object('data', ${sql}, 'contacts', ${contacts})`;
        };
        const withContactsFor = (json: unknown) =>
          held && !withMembers && contactsUnheld(held, (json as { contacts?: unknown } | null)?.contacts)
            ? request(true)
            : undefined;
        const fetchJson = async (organizationId: string): Promise<unknown> => {
          let statement = standalone.get(requestName);
          if (!statement) {
            statement = { name: `read:${requestName}`, text: `SELECT ${sqlAt("$1::uuid", 2)} AS data`, planEachRun };
            standalone.set(requestName, statement);
          }
          const [row] = await (await getSql()).rows<{ data: unknown }>(statement, [organizationId, ...values]);
          const json = row?.data ?? null;
          return withContactsFor(json)?.fetchJson(organizationId) ?? json;
        };
        return {
          name: requestName,
          planEachRun,
          args: values,
          sqlAt,
          toBody,
          withContactsFor,
          fetchJson,
          run: async (id) => toBody(await fetchJson(id)),
        };
      };
      return request(false);
    },
  };
}

/** A read's SQL with its present arguments at $first, $first+1, … and its absent ones as undefined. */
function buildSql<Args extends unknown[]>(
  sql: SqlBuilder<Args>,
  organizationId: string,
  first: number,
  present: boolean[],
): string {
  let next = first;
  const slots = present.map((isPresent) => (isPresent ? `$${next++}` : undefined));
  return (sql as (organizationId: string, ...slots: (string | undefined)[]) => string)(organizationId, ...slots);
}
