import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./server";

// The settings page's server actions called as its form calls them, for process tests that drive a real server
// without a browser.

/** The id Next gave a server action in this build (SUNDOWN_DIST_DIR). */
export function serverActionId(exportedName: string): string {
  const manifest = JSON.parse(
    readFileSync(
      path.join(ROOT, process.env.SUNDOWN_DIST_DIR ?? ".next", "server/server-reference-manifest.json"),
      "utf8",
    ),
  );
  const entry = Object.entries(manifest.node as Record<string, { exportedName: string }>).find(
    ([, a]) => a.exportedName === exportedName,
  );
  if (!entry) throw new Error(`no server action ${exportedName} in the build`);
  return entry[0];
}

/**
 * The request the create-key form sends for a key named `name` with team:read: (previous state, form data) in
 * React's reply encoding. The form's fields go under the prefix `_1_`, then the argument list, which the server
 * decodes as it streams in, so it must come after the fields it refers to ($K1).
 */
export async function createKeyActionRequest(
  base: string,
  cookie: string,
  name: string,
): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const data = new FormData();
  data.set("_1_name", name);
  data.set("_1_scopes", "team:read");
  data.set("0", JSON.stringify([{ status: "idle" }, "$K1"]));
  const encoded = new Response(data);
  return {
    headers: {
      "Next-Action": serverActionId("createApiKeyAction"),
      Accept: "text/x-component",
      Origin: base,
      "Content-Type": encoded.headers.get("content-type")!,
      Cookie: cookie,
    },
    body: Buffer.from(await encoded.arrayBuffer()),
  };
}
