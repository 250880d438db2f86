import type { z } from "zod";
import { LISTED_ENDPOINTS } from "@/lib/schemas/api-root";
import { briefing } from "./briefing";
import { getReport } from "./get-report";
import { identity } from "./identity";
import { listReports } from "./list-reports";
import type { InputOfParameters, Operation, Status } from "./operation";
import { filterNamesOf as filterNamesOfParameters, type FilterNameOf } from "./paged-list";
import type { Cite, Parameter } from "./parameters";
import { root } from "./root";
import { team } from "./team";

// The operations of API v1: the list of their modules (lib/operations/operation.ts says what each declares). An
// operation is added by writing its module and naming it here, under the name GET /api/v1's `endpoints`, the docs
// and the security tests know it by.

export type { McpTool, Operation, Status } from "./operation";
export type { ReportFilterInput } from "./list-reports";

const TABLE = { root, identity, list_reports: listReports, get_report: getReport, briefing, team };

export type OperationName = keyof typeof TABLE;

/** A table entry with its name: the key it has in the table, as in GET /api/v1's `endpoints`. */
export type NamedOperation<N extends OperationName> = (typeof TABLE)[N] & { name: N };

export const OPERATIONS = Object.fromEntries(
  Object.entries(TABLE).map(([name, operation]) => [name, { ...operation, name }]),
) as {
  [N in OperationName]: NamedOperation<N>;
};

/** The operations that need an API key: each with an MCP twin. */
export type KeyedOperationName = {
  [N in OperationName]: (typeof TABLE)[N]["access"] extends "key" ? N : never;
}[OperationName];

// GET /api/v1 lists the contract's endpoints by these names (lib/schemas/api-root.ts, a layer below, declares
// which): each must be an operation here, or the API root would list one nobody answers.
LISTED_ENDPOINTS satisfies readonly KeyedOperationName[];

export type KeyedOperation = { [N in KeyedOperationName]: NamedOperation<N> }[KeyedOperationName];

export const KEYED_OPERATIONS: KeyedOperation[] = Object.values(OPERATIONS).filter(
  (operation): operation is KeyedOperation => operation.access === "key",
);

/** An operation's parsed input: each parameter's value by name; those that may be absent are optional. */
export type InputOf<O extends Operation> = InputOfParameters<O["parameters"]>;

export type OperationInput<N extends OperationName> = InputOf<(typeof OPERATIONS)[N]>;

export type OperationOutput<N extends OperationName> = z.output<(typeof OPERATIONS)[N]["output"]>;

/** Statuses every keyed operation can answer, besides 200: 304 (If-None-Match), 401, 405, 429, 500, 503. */
// 400 on every keyed operation: one without parameters still refuses a query parameter it does not define.
const KEYED_STATUSES = [304, 400, 401, 405, 429, 500, 503] as const;

/** "GET /api/v1/reports/{id}": how GET /api/v1's `endpoints` and the docs name an operation. */
export function endpointOf(operation: Pick<Operation, "method" | "path">): string {
  return `${operation.method} ${operation.path}`;
}

/** Where a parameter is published: the REST API's OpenAPI document, or MCP's tools/list. */
export type Surface = "rest" | "mcp";

/** How `surface` names an operation, for a parameter's description: a caller of that surface can call it. */
function citeOn(surface: Surface): Cite {
  return (name) => (surface === "rest" ? endpointOf(OPERATIONS[name]) : OPERATIONS[name].tool.name);
}

/** A parameter's schema as `surface` publishes it: with its description in that surface's words. */
export function publishedSchema(parameter: Parameter<unknown>, surface: Surface): z.ZodType {
  return parameter.describe
    ? parameter.schema.meta({ description: parameter.describe(citeOn(surface)) })
    : parameter.schema;
}

/** Every status an operation can answer, ascending. */
export function statusesOf(operation: Operation): Status[] {
  const base: readonly Status[] = operation.access === "key" ? [200, ...KEYED_STATUSES] : [200];
  return [...new Set([...base, ...operation.statuses])].sort((a, b) => a - b);
}

/** An operation's filters (its parameters marked with asFilter), in the order of its parameters. */
export function filterNamesOf<O extends Operation>(operation: O): FilterNameOf<O["parameters"]>[] {
  return filterNamesOfParameters(operation.parameters);
}
