import type { VerifiedKey } from "@/lib/admission/verify-api-key";
import { ApiError } from "@/lib/errors";
import { encodeCursor, filtersDigest, isAuthentic, type Cursor } from "./cursor";
import type { InputOfParameters, Parameters } from "./operation";
import { CURSOR_RULE, periodBoundText, type PeriodBound } from "./parameters";

// How every list that pages answers: a page of items, newest first, and a signed cursor that continues after its
// last item. A cursor is bound to the organization it was made for and to the list's filters (the parameters marked
// with asFilter), so a page asked with other filters, or by another organization, is refused.

/** The message for a cursor made for other filters (or for days counted in another time zone). */
const CURSOR_FILTERS_RULE =
  "cursor was made for other filters: repeat the filters of the page it came from, or leave cursor out to start again.";

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

/** A page as a list's read brings it: its items, whether more follow, and whether a byte bound ended it early. */
export interface ReadPage<Item> {
  items: Item[];
  more: boolean;
  cut?: true;
}

/** What every paged answer ends with, after its items. */
export interface PageContinuation {
  count: number;
  next_cursor: string | null;
  truncated?: true;
}

/** The position a cursor records: the page's last item, by when it was made and its id (a keyset position). */
interface Positioned {
  generated_at: string;
  id: string;
}

/** The paging of a list of these parameters: its filters, their digest, the cursor's check and the next cursor. */
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

  /**
   * A page read for `input` as the answer's continuation, for this key. Only now is the organization known: a
   * cursor of another organization, not signed here, or made for other filters is refused.
   */
  function continuation(
    page: ReadPage<Positioned>,
    input: InputOfParameters<Params> & { cursor?: Cursor },
    key: VerifiedKey,
  ): PageContinuation {
    const { cursor } = input;
    const filters = digest(input as Partial<Record<Name, string | PeriodBound>>, key.timeZone);
    if (cursor && (!isAuthentic(cursor) || cursor.organizationId !== key.organization.id)) {
      throw new ApiError("invalid_parameter", CURSOR_RULE);
    }
    if (cursor && cursor.filters !== filters) throw new ApiError("invalid_parameter", CURSOR_FILTERS_RULE);
    const last = page.items.at(-1);
    const next =
      page.more && last
        ? encodeCursor({ organizationId: key.organization.id, filters, generatedAt: last.generated_at, id: last.id })
        : null;
    return { count: page.items.length, next_cursor: next, ...(page.cut && { truncated: true as const }) };
  }

  return { names, filtersOf, digest, continuation };
}
