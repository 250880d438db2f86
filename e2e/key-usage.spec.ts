import { execFileSync } from "node:child_process";
import path from "node:path";
import { ROOT, startServer, tempDataDir, type RunningServer } from "../tests/helpers/server";
import { expect, signInToKeys, snap, test, USERS } from "./fixtures";

// Issue 15: each key's requests per day in the keys table, on a server of its own whose database was seeded
// beforehand (e2e/usage-seed.ts) with 200 keys and a year of usage; "busy-agent" has a month of known traffic.

// The busy key's last 30 days, day i (0 the oldest): 40 + i successes, 3 client errors every fifth day, 12
// rate-limited on day 20.
const BUSY = { successes: 1_635, client_errors: 18, rate_limited: 12 };

let server: RunningServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = tempDataDir();
  execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "e2e/usage-seed.ts"), dataDir], { cwd: ROOT });
  server = await startServer({ SUNDOWN_DATA_DIR: dataDir, SUNDOWN_DIST_DIR: process.env.SUNDOWN_DIST_DIR });
});

test.afterAll(() => server?.stop());

test.describe("usage per key", () => {
  test("a key with a month of traffic shows its requests per day and the numbers", async ({ browser }, testInfo) => {
    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const row = keys.row("busy-agent");
    await expect(row.getByText("1,665 requests", { exact: true })).toBeVisible();
    await expect(row.getByText("18 client errors, 12 rate-limited", { exact: true })).toBeVisible();
    const chart = row.getByRole("img");
    await expect(chart).toHaveAccessibleName(
      `Requests per day over the last 30 days: 1,665 requests (${BUSY.successes.toLocaleString("en-GB")} succeeded, ` +
        `${BUSY.client_errors} client errors, ${BUSY.rate_limited} rate-limited); busiest day ` +
        `${busiestDay()} with 75.`,
    );
    // Three stacked series: every day has successes, six have client errors, one was rate-limited.
    await expect(chart.locator("path.usage-chart__successes")).toHaveAttribute("d", /^(M[^M]+){30}$/);
    await expect(chart.locator("path.usage-chart__client-errors")).toHaveAttribute("d", /^(M[^M]+){6}$/);
    await expect(chart.locator("path.usage-chart__rate-limited")).toHaveAttribute("d", /^M[^M]+$/);
    await expect(page.getByText(/^Requests per UTC day over the last 30 days/)).toBeVisible();
    await snap(page, testInfo, "usage-busy-key");
  });

  test("200 keys with a year of usage: every row has its chart and 30-day total", async ({ browser }, testInfo) => {
    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    const keys = await signInToKeys(page, USERS.acmeFounder);
    await expect(keys.keysTable.getByRole("img", { name: /^Requests per day over the last 30 days/ })).toHaveCount(200);
    // A year of history, yet only the window counts: each load key has 30 days of 500 to 549 successes.
    const totals = await keys.keysTable.locator(".usage-total").allTextContents();
    expect(totals).toHaveLength(200);
    for (const total of totals.filter((t) => t !== "1,665 requests")) {
      expect(Number(total.replace(/\D/g, ""))).toBeGreaterThanOrEqual(30 * 502);
      expect(Number(total.replace(/\D/g, ""))).toBeLessThanOrEqual(30 * 551);
    }
    await snap(page, testInfo, "usage-200-keys");
  });

  test("on a phone-sized screen the chart and its numbers stay readable, and the page does not scroll sideways", async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const row = keys.row("busy-agent");
    // The table scrolls sideways inside its own region; the chart and its numbers scroll into view whole.
    const chart = row.getByRole("img");
    await chart.scrollIntoViewIfNeeded();
    await expect(row.getByText("1,665 requests", { exact: true })).toBeInViewport();
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await snap(page, testInfo, "usage-mobile");
  });
});

function busiestDay(): string {
  const day = new Date(Date.now() - 9 * 86_400_000);
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(
    day,
  );
}
