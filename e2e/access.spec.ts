import { bearer, expect, signInToKeys, snap, test, uniqueName, USERS } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";

test.describe("who may manage keys", () => {
  test("a member sees that only founders and leads manage keys", async ({ page }, testInfo) => {
    const keys = await signInToKeys(page, USERS.acmeMember);
    await expect(page.getByRole("heading", { name: "Only founders and leads manage API keys" })).toBeVisible();
    await expect(page.getByText("You are signed in as a member of Acme Robotics.")).toBeVisible();
    await expect(keys.create).toHaveCount(0);
    await expect(keys.keysTable).toHaveCount(0);
    await snap(page, testInfo, "member-no-access");
  });

  test("a signed-out visitor is sent to sign in and comes back afterwards", async ({ page, signInPage }, testInfo) => {
    await page.goto("/settings/api-keys");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fsettings%2Fapi-keys$/);
    await expect(signInPage.heading).toBeVisible();
    await snap(page, testInfo, "signin-page");
    await signInPage.signIn(USERS.acmeLead);
    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    await expect(new ApiKeysPage(page).heading).toBeVisible();
    await expect(page.getByText("Signed in as Dev Patel")).toBeVisible();
  });

  test("a wrong password gets a clear message and no session", async ({ page, signInPage }, testInfo) => {
    await signInPage.goto("/settings/api-keys");
    await signInPage.signIn(USERS.globexMember, "not-the-password");
    await expect(signInPage.error).toHaveText("Wrong email or password. Check both and try again.");
    await expect(page).toHaveURL(/\/signin/);
    await expect(signInPage.email).toBeFocused();
    await snap(page, testInfo, "wrong-password");
    await page.goto("/settings/api-keys");
    await expect(page).toHaveURL(/\/signin\?/);
  });

  test("signing out ends the session", async ({ page }) => {
    const keys = await signInToKeys(page, USERS.globexLead);
    await keys.signOut.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await page.goto("/settings/api-keys");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  });

  test("an API key is not a session: the settings page sends it to sign in", async ({ page, request }) => {
    const keys = await signInToKeys(page, USERS.globexFounder);
    const secret = await keys.createKey(uniqueName("not-a-session"), ["reports:read", "team:read"]);
    const response = await request.get("/settings/api-keys", { headers: bearer(secret), maxRedirects: 0 });
    expect(response.status()).toBe(307);
    expect(response.headers()["location"]).toMatch(/\/signin\?callbackUrl=%2Fsettings%2Fapi-keys$/);
  });
});

test.describe("organization isolation", () => {
  test("a lead cannot revoke another organization's key, even with its id in the form", async ({ page, request, newSession }, testInfo) => {
    // Globex's founder makes a key in a separate browser session.
    const globex = await signInToKeys(await newSession(), USERS.globexFounder);
    const globexName = uniqueName("globex-agent");
    const globexSecret = await globex.createKey(globexName, ["reports:read"]);
    const globexKeyId = await globex.keyId(globexName);

    // Acme's lead aims their own revoke form at Globex's key id.
    const acme = await signInToKeys(page, USERS.acmeLead);
    await expect(acme.row(globexName)).toHaveCount(0);
    const acmeName = uniqueName("acme-agent");
    await acme.createKey(acmeName, ["team:read"]);
    await acme.row(acmeName).locator('input[name="keyId"]').evaluate((input: HTMLInputElement, id) => {
      input.value = id;
    }, globexKeyId);
    const dialog = await acme.openRevoke(acmeName);
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("This key does not exist in your organization.");
    await snap(page, testInfo, "cross-org-revoke-refused");

    // Nothing changed: Globex's key still works and is still active; Acme's own key too.
    const me = await request.get("/api/v1/me", { headers: bearer(globexSecret) });
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ organization: { name: "Globex" } });
    await globex.page.reload();
    await expect(globex.row(globexName).getByRole("cell", { name: "Active" })).toBeVisible();
    await page.reload();
    await expect(acme.row(acmeName).getByRole("cell", { name: "Active" })).toBeVisible();
  });
});
