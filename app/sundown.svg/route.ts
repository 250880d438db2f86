import { withRequest } from "@/lib/http/with-request";
import { ICON_SVG } from "@/lib/mcp/icon";

// GET /sundown.svg – the icon MCP clients and registries show for Sundown (lib/mcp/icon.ts). The same bytes until
// the next deploy: a day in any cache. withRequest adds CORS (clients fetch it from their own origin) and nosniff;
// the policy keeps any script from running should the SVG be opened as a document.
export const GET = withRequest(
  async () =>
    new Response(ICON_SVG, {
      headers: {
        "Content-Type": "image/svg+xml",
        "Cache-Control": "public, max-age=86400",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      },
    }),
);

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
