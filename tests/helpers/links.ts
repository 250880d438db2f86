/** An RFC 8288 Link header as its links: each target and its parameters (rel, type, title), unquoted. */
export function parseLinks(header: string): { href: string; params: Record<string, string> }[] {
  return header.split(/,\s*(?=<)/).map((link) => ({
    href: /^<([^>]*)>/.exec(link)![1]!,
    params: Object.fromEntries([...link.matchAll(/;\s*([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, v!])),
  }));
}
