// Vary names the request headers a response depends on, and several steps learn one: the keyed answer depends
// on the key headers, links on the Host they were built from. Each adds its names through mergeVary, never by
// setting the header, so no step overwrites another's (RFC 9110 §12.5.5: a cache keyed on too few headers hands
// one client's answer to another).

/** The field names of every value, each once (case-insensitively, first spelling kept), in order; `*` absorbs all. */
export function mergeVary(...values: (string | null | undefined)[]): string {
  const names = new Map<string, string>();
  for (const value of values) {
    for (const name of value?.split(",") ?? []) {
      const trimmed = name.trim();
      if (trimmed && !names.has(trimmed.toLowerCase())) names.set(trimmed.toLowerCase(), trimmed);
    }
  }
  return names.has("*") ? "*" : [...names.values()].join(", ");
}
