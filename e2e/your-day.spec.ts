import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { ROOT, startServer, tempDataDir, type RunningServer } from "../tests/helpers/server";
import { expect, snap, test, USERS } from "./fixtures";
import { DayPage } from "./pages/day-page";
import { SignInPage } from "./pages/sign-in-page";

// Issue 38: "Your day" in a real browser, on a server of its own whose database was seeded beforehand
// (e2e/day-seed.ts) with an earlier update of acme's member: a member signs in and lands on their day, writes it,
// saves and reloads; acme's member is offered their last update's open items, carries one forward and marks the
// other resolved. Screenshots at 1280 and 390 px, copied to SUNDOWN_SHOTS_DIR when set.

let server: RunningServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = tempDataDir();
  execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "e2e/day-seed.ts"), dataDir], { cwd: ROOT });
  server = await startServer({ SUNDOWN_DATA_DIR: dataDir, SUNDOWN_DIST_DIR: process.env.SUNDOWN_DIST_DIR });
});

test.afterAll(() => server?.stop());

async function signInToDay(browser: Browser, email: string): Promise<{ page: Page; day: DayPage }> {
  const page = await (await browser.newContext({ baseURL: server.url })).newPage();
  const signIn = new SignInPage(page);
  // No page asked for: a member lands on their day, the one page of theirs.
  await signIn.goto();
  await signIn.signIn(email);
  await expect(page).toHaveURL(/\/day$/);
  const day = new DayPage(page);
  await expect(day.heading).toBeVisible();
  return { page, day };
}

/** Both widths, full page, kept with the results and copied where the session looks at them. */
async function shots(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await snap(page, testInfo, `${name}-${width}`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBe(0);
    const dir = process.env.SUNDOWN_SHOTS_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(testInfo.outputPath(`${name}-${width}.png`), path.join(dir, `${name}-${width}.png`));
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a member writes today's update, saves it and finds it again after a reload", async ({ browser }, testInfo) => {
  const { page, day } = await signInToDay(browser, USERS.globexMember);
  await expect(page.getByText(/Reports are written at 18:00 \(Mon–Fri\)\./)).toBeVisible();
  // Members report no KPIs: the section is not there.
  await expect(day.form.getByRole("group", { name: "KPI values" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Your day" }).first()).toBeVisible();

  await day.shipped(1).fill("Billing export to CSV");
  await day.shipped(2).fill("Fixed the invoice rounding");
  await day.slipping(1, "item").fill("SSO for enterprise");
  await day.slipping(1, "reason").fill("Waiting on the IdP metadata");
  await day.slipping(1, "due").fill("2030-01-15");
  await day.blocker(1).fill("Need prod DB read access, ask julia@globex.example");
  await day.note.fill("Out at the dentist 2–3pm. Call +1 202 555 0143 if urgent.");
  await shots(page, testInfo, "your-day-filled");
  await day.save.click();
  await expect(day.status).toHaveText("Saved: today’s update is written.");

  await page.reload();
  await expect(day.shipped(1)).toHaveValue("Billing export to CSV");
  await expect(day.shipped(2)).toHaveValue("Fixed the invoice rounding");
  // A new empty row to add to, without any script.
  await expect(day.shipped(3)).toHaveValue("");
  await expect(day.slipping(1, "item")).toHaveValue("SSO for enterprise");
  await expect(day.slipping(1, "reason")).toHaveValue("Waiting on the IdP metadata");
  await expect(day.slipping(1, "due")).toHaveValue("2030-01-15");
  // The author's own text, contact details included, as written.
  await expect(day.blocker(1)).toHaveValue("Need prod DB read access, ask julia@globex.example");
  await expect(day.note).toHaveValue("Out at the dentist 2–3pm. Call +1 202 555 0143 if urgent.");
  await shots(page, testInfo, "your-day-saved");
});

test("the next day, yesterday's blockers are offered: one carried forward, one resolved", async ({
  browser,
}, testInfo) => {
  const { page, day } = await signInToDay(browser, USERS.acmeMember);
  await expect(day.carry).toBeVisible();
  const staging = day.carried("Blocker: Waiting on staging access from IT");
  const samples = day.carried("Blocker: Torque sensor samples late");
  const dashboard = day.carried(/Slipping: Fleet dashboard filters/);
  await shots(page, testInfo, "your-day-carry");

  await staging.open.check();
  await samples.resolved.check();
  await dashboard.open.check();
  await day.shipped(1).fill("Calibrated arm 3");
  await day.save.click();
  await expect(day.status).toHaveText("Saved: today’s update is written.");

  await page.reload();
  await expect(day.blocker(1)).toHaveValue("Waiting on staging access from IT");
  await expect(day.blocker(2)).toHaveValue("");
  await expect(day.slipping(1, "item")).toHaveValue("Fleet dashboard filters");
  await expect(day.slipping(1, "reason")).toHaveValue("API not ready");
  await expect(day.shipped(1)).toHaveValue("Calibrated arm 3");
  // Only the resolved one is still offered, as resolved: the carried ones are today's now.
  await expect(day.carry.getByRole("group")).toHaveCount(1);
  await expect(samples.resolved).toBeChecked();
});

test("without JavaScript a lead writes the day with KPI values; a value that is not a number is refused, kept", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
  const page = await context.newPage();
  const signIn = new SignInPage(page);
  await signIn.goto("/day");
  await signIn.signIn(USERS.globexLead);
  const day = new DayPage(page);
  await expect(day.heading).toBeVisible();
  const kpis = day.form.getByRole("group", { name: "KPI values" });
  await kpis.getByLabel("KPI 1", { exact: true }).fill("Signups");
  await kpis.getByLabel("Value").first().fill("a lot");
  await day.shipped(1).fill("Pricing page copy");
  await day.save.click();
  await expect(day.form.getByRole("alert")).toHaveText("Your update was not saved. Fix the sections marked below.");
  await expect(page.locator("#day-kpi-name-0-error")).toHaveText("Must be a number.");
  await expect(day.shipped(1)).toHaveValue("Pricing page copy");
  await expect(kpis.getByLabel("Value").first()).toHaveValue("a lot");

  await kpis.getByLabel("Value").first().fill("42");
  await day.save.click();
  await expect(day.status).toHaveText("Saved: today’s update is written.");
  await page.goto("/day");
  await expect(day.form.getByRole("group", { name: "KPI values" }).getByLabel("KPI 1", { exact: true })).toHaveValue(
    "Signups",
  );
  await expect(day.form.getByRole("group", { name: "KPI values" }).getByLabel("Value").first()).toHaveValue("42");
  await context.close();
});
