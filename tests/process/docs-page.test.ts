import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLinks } from "../helpers/links";
import { ROOT, startServer, type RunningServer } from "../helpers/server";
import { KEYED_OPERATIONS } from "@/lib/operations/table";
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "../../e2e/chromium";

// The discovery surface of the production build, over real HTTP, and the docs page in a real browser:
// it must render the guide and the Scalar reference without a single request to another host.

// A fresh machine may have no Chromium (`npm test` must still pass there): the browser check is then skipped,
// visibly. CI installs Chromium and must never skip it.
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM && process.env.CI === "true")
  throw new Error(`CI=true requires Chromium at ${CHROMIUM} for the docs page test.`);
const SCREENSHOT = "/tmp/sundown-docs.png";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

describe("discovery over HTTP (production build)", () => {
  it("GET and HEAD /.well-known/api-catalog answer with the Link to the catalog; HEAD has no body", async () => {
    const get = await fetch(`${server.url}/.well-known/api-catalog`);
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    const catalog = await get.json();
    expect(catalog.linkset[0]["service-desc"][0].href).toBe(`${server.url}/openapi.json`);
    const head = await fetch(`${server.url}/.well-known/api-catalog`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toBe(`<${server.url}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(await head.text()).toBe("");
  });

  it("HEAD /api/v1 carries the api-catalog Link too", async () => {
    const head = await fetch(`${server.url}/api/v1`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toMatch(
      new RegExp(`^<${server.url}/\\.well-known/api-catalog>; rel="api-catalog", `),
    );
  });

  it("/ and /docs link to the discovery documents, each of which answers, and answer Accept: text/markdown", async () => {
    for (const page of ["/", "/docs"]) {
      const html = await fetch(`${server.url}${page}`, { headers: { Accept: "text/html" } });
      expect(html.headers.get("content-type"), page).toContain("text/html");
      const links = parseLinks(html.headers.get("link")!);
      expect(links.map((l) => l.params.rel)).toEqual(["api-catalog", "service-desc", "service-doc", "alternate"]);
      for (const link of links) {
        const target = await fetch(link.href);
        expect(target.status, link.href).toBe(200);
        if (link.params.rel === "alternate") expect(target.headers.get("content-type")).toContain("text/markdown");
      }
      const markdown = await fetch(`${server.url}${page}`, { headers: { Accept: "text/markdown" } });
      expect(markdown.headers.get("content-type"), page).toBe("text/markdown; charset=utf-8");
      expect(markdown.headers.get("vary")).toMatch(/\bAccept\b/);
      expect(await markdown.text()).toMatch(/^# Sundown\n/);
    }
    // The signed-in pages are left alone: no discovery links, no markdown, and next-auth's CSRF cookie for their forms.
    for (const page of ["/signin", "/settings/api-keys"]) {
      const res = await fetch(`${server.url}${page}`, { headers: { Accept: "text/markdown" }, redirect: "manual" });
      // Next may send its own preload Link header on a page; the discovery relations are what must be absent.
      expect(res.headers.get("link") ?? "", page).not.toMatch(/rel="(api-catalog|service-desc|service-doc)"/);
      expect(res.headers.get("content-type") ?? "", page).not.toContain("text/markdown");
      expect(
        res.headers.getSetCookie().some((c) => c.includes("next-auth.csrf-token")),
        page,
      ).toBe(true);
    }
  });

  it("every link in the API root and the catalog resolves on the running server", async () => {
    const root = await (await fetch(`${server.url}/api/v1`)).json();
    for (const url of [root.documentation, root.openapi, root.api_catalog]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
    }
    const doc = await (await fetch(root.openapi)).json();
    expect(doc.servers[0].url).toBe(server.url);
  });

  it("OAuth discovery paths, with and without a resource path, are JSON 404s", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/api/mcp",
      "/.well-known/openid-configuration",
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect((await res.json()).error).toBe("not_found");
    }
  });

  it("/llms.txt is plain-text markdown", async () => {
    const res = await fetch(`${server.url}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toMatch(/^# Sundown\n/);
  });

  it("/favicon.ico is the app's icon, and pages point browsers at it", async () => {
    const res = await fetch(`${server.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(path.join(ROOT, "app/favicon.ico")))).toBe(true);
    expect(await (await fetch(`${server.url}/`)).text()).toMatch(/<link rel="icon" href="\/favicon\.ico(\?[^"]*)?"/);
  });

  it("/docs is server-rendered HTML with the guide's sections and the server's own base URL", async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    for (const heading of ["Quick start", "Authentication", "Errors and limits", "MCP setup", "API reference"]) {
      expect(html).toContain(heading);
    }
    expect(html).toContain(`export SUNDOWN_URL=${server.url}`);
    expect(html).toContain(`${server.url}/api/mcp`);
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\/(?!127\.0\.0\.1)/);
  });
});

describe.skipIf(!HAS_CHROMIUM)(
  `the docs page in a real browser${HAS_CHROMIUM ? "" : ` (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`}`,
  () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    });

    afterAll(async () => {
      await browser?.close();
    });

    it("renders the guide and the Scalar reference with no request to any other host and no script error", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const origin = new URL(server.url).origin;
      const foreign: string[] = [];
      const errors: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      page.on("pageerror", (error) => errors.push(error.message));
      // Scalar validates the document it loads and logs what it cannot read; the reference must load cleanly.
      page.on("console", (message) => {
        if (message.type() === "warning" && /validation/i.test(message.text())) errors.push(message.text());
      });

      await page.goto(`${server.url}/docs`, { waitUntil: "load" });
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain("end-of-day reports");
      for (const name of ["Quick start", "Authentication", "Errors and limits", "MCP setup", "API reference"]) {
        expect(await page.getByRole("heading", { level: 2, name }).count(), name).toBe(1);
      }
      // Scalar has rendered the document it fetched from /openapi.json: the operations' summaries appear.
      const reference = page.locator("#reference");
      for (const { summary } of KEYED_OPERATIONS) {
        await reference.getByText(summary, { exact: true }).first().waitFor({ state: "attached", timeout: 30_000 });
      }
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      await page.locator("#reference").scrollIntoViewIfNeeded();
      await page.screenshot({ path: SCREENSHOT.replace(".png", "-reference.png"), fullPage: false });

      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("when the reference's script cannot load, the page says so and points at openapi.json", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.route("**/docs/api-reference.js", (route) => route.abort());
      await page.goto(`${server.url}/docs`, { waitUntil: "load" });
      const reference = page.locator("#reference");
      await reference.getByText("could not load", { exact: false }).waitFor({ timeout: 15_000 });
      expect(await reference.getByRole("link", { name: "openapi.json" }).last().getAttribute("href")).toBe(
        "/openapi.json",
      );
      expect(await reference.getByText("Loading the API reference").count()).toBe(0);
      await page.close();
    });

    it("on a phone, every table row reads as a card: no cell squeezed or cut, no markdown backticks shown", async () => {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(`${server.url}/docs`, { waitUntil: "load" });
      // Measured once the reference has rendered, as a reader sees the page: Scalar brings styles of its own.
      const reference = page.locator("#reference");
      await reference.getByText(KEYED_OPERATIONS[0]!.summary, { exact: true }).first().waitFor({ state: "attached" });
      await page.waitForLoadState("networkidle");
      // The guide's own tables: Scalar's, inside the reference, have their own layout.
      const tables = await page.locator("main table").evaluateAll((found) =>
        found
          .filter((table) => !table.closest("#reference"))
          .map((table) => ({
            caption: table.querySelector("caption")?.textContent ?? "",
            overflowing: table.scrollWidth > table.clientWidth + 1,
            // A cell as narrow as a word per line is what the card layout replaces: each cell spans its card.
            narrowest: Math.min(...[...table.querySelectorAll("td")].map((cell) => cell.getBoundingClientRect().width)),
            width: table.getBoundingClientRect().width,
            labelled: [...table.querySelectorAll("td")].every((cell) => cell.getAttribute("data-label")),
            backticks: (table.textContent ?? "").includes("`"),
          })),
      );
      expect(tables.map((t) => t.caption)).toEqual(["Scopes", "Status codes", "Tools", "Events"]);
      for (const table of tables) {
        expect(table, table.caption).toMatchObject({ overflowing: false, labelled: true, backticks: false });
        expect(table.narrowest, table.caption).toBeGreaterThan(table.width * 0.8);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.close();
    });
  },
);
