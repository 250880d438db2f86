import type { Icon } from "@modelcontextprotocol/server";

// Sundown's icon, for MCP clients and registries that show one beside the server, its tools, prompts and
// resources. One scalable SVG: the MCP revisions that carry icons (2025-11-25, 2026-07-28) name image/svg+xml
// among the types a client should render, and an SVG needs no size variants.

/** Where the icon is served (app/sundown.svg/route.ts). */
const ICON_PATH = "/sundown.svg";

/** The image itself: no script, no external reference. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Sundown">
<rect width="64" height="64" rx="14" fill="#1f2547"/>
<circle cx="32" cy="40" r="16" fill="#f59e42"/>
<rect x="0" y="40" width="64" height="24" fill="#1f2547"/>
<path d="M10 44h44M16 50h32M24 56h16" stroke="#f59e42" stroke-width="3" stroke-linecap="round"/>
</svg>
`;

/** The icons every MCP surface publishes: absolute, as MCP's Icon.src must be a URI. */
export function iconsAt(base: string): Icon[] {
  return [{ src: `${base}${ICON_PATH}`, mimeType: "image/svg+xml", sizes: ["any"] }];
}
