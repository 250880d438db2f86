import { randomBytes } from "node:crypto";
import { test as base, expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { ApiKeysPage } from "./pages/api-keys-page";
import { SignInPage } from "./pages/sign-in-page";

export const USERS = {
  acmeFounder: "founder@acme.example",
  acmeLead: "lead@acme.example",
  acmeMember: "member@acme.example",
  globexFounder: "founder@globex.example",
  globexLead: "lead@globex.example",
  globexMember: "member@globex.example",
} as const;

/** A key name no other test uses, so no test depends on another's keys. */
export function uniqueName(label: string): string {
  return `${label}-${randomBytes(3).toString("hex")}`;
}

export function bearer(key: string) {
  return { Authorization: `Bearer ${key}` };
}

/** A full-page screenshot kept with the test's results (test-results/, not committed). */
export async function snap(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** Signs in through the real form and lands on the API keys page. */
export async function signInToKeys(page: Page, email: string): Promise<ApiKeysPage> {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/api-keys");
  await signIn.signIn(email);
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  const keys = new ApiKeysPage(page);
  await expect(keys.heading).toBeVisible();
  return keys;
}

/** A second, separate browser session (its own cookies), closed after the test. */
async function openSession(browser: Browser, use: (open: () => Promise<Page>) => Promise<void>) {
  const contexts: Awaited<ReturnType<Browser["newContext"]>>[] = [];
  await use(async () => {
    const context = await browser.newContext();
    contexts.push(context);
    return context.newPage();
  });
  await Promise.all(contexts.map((c) => c.close()));
}

export const test = base.extend<{ signInPage: SignInPage; newSession: () => Promise<Page> }>({
  signInPage: async ({ page }, use) => use(new SignInPage(page)),
  newSession: async ({ browser }, use) => openSession(browser, use),
});

export { expect };
