/** The key a dialog or button acts on. */
export interface KeyTarget {
  id: string;
  name: string;
}
