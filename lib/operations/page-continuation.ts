import type { VerifiedKey } from "@/lib/admission/verify-api-key";
import { ApiError } from "@/lib/errors";
import type { Cursor } from "./cursor";
import { encodeCursor, isAuthentic } from "./cursor-signature";
import { CURSOR_RULE } from "./parameters";

// How the server finishes a page of a paged list (lib/operations/paged-list.ts): only once the key is known is the
// organization (and its time zone) known, so only then can the cursor that asked for the page be checked, and the
// next one signed. Server-side, with the answers: it needs the server's secret.

/** The message for a cursor made for other filters (or for days counted in another time zone). */
const CURSOR_FILTERS_RULE =
  "cursor was made for other filters: repeat the filters of the page it came from, or leave cursor out to start again.";

/** A page as a list's read brings it: its items, whether more follow, and whether a byte bound ended it early. */
interface ReadPage<Item> {
  items: Item[];
  more: boolean;
  cut?: true;
}

/** What every paged answer ends with, after its items. */
interface PageContinuation {
  count: number;
  next_cursor: string | null;
  truncated?: true;
}

/** The position a cursor records: the page's last item, by when it was made and its id (a keyset position). */
interface Positioned {
  generated_at: string;
  id: string;
}

/** A list's paging, as far as its continuation needs it: the digest of an input's filters in a time zone. */
interface Digest<Input> {
  digest(input: Input, timeZone: string): string;
}

/**
 * A page read for `input` as the answer's continuation, for this key: a cursor of another organization, not signed
 * here, or made for other filters is refused.
 */
export function pageContinuation<Input>(
  paging: Digest<Input>,
  page: ReadPage<Positioned>,
  input: Input & { cursor?: Cursor },
  key: VerifiedKey,
): PageContinuation {
  const { cursor } = input;
  const filters = paging.digest(input, key.timeZone);
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
