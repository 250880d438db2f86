/**
 * The key a dialog or button acts on. Two keys may share a name (a rolled key and its replacement always do), so
 * each is also named by its hint, which the keys table shows in its Key column.
 */
export interface KeyTarget {
  id: string;
  name: string;
  hint: string;
}
