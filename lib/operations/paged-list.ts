import { filtersDigest } from "./cursor";
import type { Parameters } from "./operation";
import { periodBoundText, type PeriodBound } from "./parameters";

// How every list that pages is described: a page of items, newest first, and a signed cursor that continues after
// its last item. A cursor is bound to the organization it was made for and to the list's filters (the parameters
// marked with asFilter), so a page asked with other filters, or by another organization, is refused. The server
// signs and checks cursors as it answers (lib/operations/page-continuation.ts); here is what the definition knows:
// which parameters are filters, and their digest.

/** The names of a list's filters: its parameters marked with asFilter. */
export type FilterNameOf<Params extends Parameters> = {
  [P in keyof Params]: Params[P] extends { filter: true } ? P : never;
}[keyof Params] &
  string;

/** A list's filters, in the order of its parameters. */
export function filterNamesOf<Params extends Parameters>(parameters: Params): FilterNameOf<Params>[] {
  return Object.entries(parameters)
    .filter(([, parameter]) => parameter.filter)
    .map(([name]) => name as FilterNameOf<Params>);
}

/** A period bound as its digest holds it: an instant, or a day in UTC, as its UTC instant (as it always was). */
function digestedBound(bound: PeriodBound, timeZone: string, end: string): string | undefined {
  if (bound.instant !== undefined) return bound.instant;
  if (timeZone === "UTC") return `${bound.day}T${end === "until" ? "23:59:59.999" : "00:00:00.000"}Z`;
  // Another zone's day: the zone goes in, so a cursor made before the zone changed is refused.
  return `${periodBoundText(bound)} ${timeZone}`;
}

/** The paging of a list of these parameters: its filters and their digest, which its cursors carry. */
export function pagedList<Params extends Parameters>(parameters: Params) {
  type Name = FilterNameOf<Params>;
  const names = filterNamesOf(parameters);

  /** The filters of an input, present ones only; its limit and cursor stay behind. */
  function filtersOf<I extends Partial<Record<Name, unknown>>>(input: I): Pick<I, Name> {
    const present = names.filter((name) => input[name] !== undefined);
    return Object.fromEntries(present.map((name) => [name, input[name]])) as Pick<I, Name>;
  }

  /**
   * The digest a cursor carries: the filters of the page it continues (not its limit or position), its days in the
   * organization's time zone. UTC days and instants digest as they always have, so cursors already handed out keep
   * working.
   */
  function digest(input: Partial<Record<Name, string | PeriodBound>>, timeZone = "UTC"): string {
    const filters: Record<string, string | PeriodBound | undefined> = filtersOf(input);
    const digested = Object.fromEntries(
      Object.entries(filters).map(([name, value]) => [
        name,
        typeof value === "object" ? digestedBound(value, timeZone, name) : value,
      ]),
    );
    return filtersDigest(digested);
  }

  return { names, filtersOf, digest };
}
