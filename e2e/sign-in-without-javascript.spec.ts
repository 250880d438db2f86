import type { Page } from "@playwright/test";
import { expect, test, USERS } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";

// Before the page's JavaScript has loaded (a slow network) or with JavaScript off, the sign-in form is what the
// server rendered: it must still post to next-auth, never send the password in a URL.
test.use({ javaScriptEnabled: false });

const WRONG_PASSWORD = "not-the-password-4711";

/** Every URL the page requests, to show that no password ever travels in one. */
function requestedUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

test.describe("sign-in without JavaScript", () => {
  test("the form posts to next-auth, and the right password lands on the keys page signed in", async ({
    page,
    signInPage,
  }) => {
    const urls = requestedUrls(page);
    await signInPage.goto("/settings/api-keys?inactive=all");
    await expect(signInPage.form).toHaveAttribute("method", "post");
    await expect(signInPage.form).toHaveAttribute("action", "/api/auth/callback/credentials");
    await signInPage.signIn(USERS.acmeLead);
    await expect(page).toHaveURL(/\/settings\/api-keys\?inactive=all$/);
    await expect(new ApiKeysPage(page).heading).toBeVisible();
    await expect(page.getByText("Signed in as Dev Patel")).toBeVisible();
    expect(urls.filter((url) => /password|sundown-demo/i.test(url))).toEqual([]);
  });

  test("a wrong password comes back to the form with the message, and the next try still goes where it was going", async ({
    page,
    signInPage,
  }) => {
    const urls = requestedUrls(page);
    await signInPage.goto("/settings/api-keys?inactive=all");
    await signInPage.signIn(USERS.globexLead, WRONG_PASSWORD);
    await expect(page).toHaveURL(/\/signin\?.*error=CredentialsSignin/);
    await expect(signInPage.error).toHaveText("Wrong email or password. Check both and try again.");
    expect(page.url()).not.toMatch(/password/i);

    await signInPage.signIn(USERS.globexLead);
    await expect(page).toHaveURL(/\/settings\/api-keys\?inactive=all$/);
    await expect(page.getByText("Signed in as Lena Fischer")).toBeVisible();
    expect(urls.filter((url) => /password|sundown-demo/i.test(url) || url.includes(WRONG_PASSWORD))).toEqual([]);
  });

  test("signing out posts to next-auth too, and ends the session", async ({ page, signInPage }) => {
    await signInPage.goto("/settings/api-keys");
    await signInPage.signIn(USERS.acmeLead);
    const keys = new ApiKeysPage(page);
    await expect(keys.heading).toBeVisible();
    await keys.signOut.click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/settings/api-keys");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  });
});
