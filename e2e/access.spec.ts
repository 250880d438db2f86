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

  test("signing out ends the session, also for a copy of its cookie", async ({ page, newSession }) => {
    const keys = await signInToKeys(page, USERS.globexLead);
    const copied = await page.context().cookies();
    await keys.signOut.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await page.goto("/settings/api-keys");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);

    const elsewhere = await newSession();
    await elsewhere.context().addCookies(copied);
    await elsewhere.goto("/settings/api-keys");
    await expect(elsewhere).toHaveURL(/\/signin\?callbackUrl=%2Fsettings%2Fapi-keys$/);
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
  test("a lead cannot revoke another organization's key, even with its id in the form", async ({
    page,
    request,
    newSession,
  }, testInfo) => {
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
    const dialog = await acme.openRevoke(acmeName);
    await dialog.locator('input[name="keyId"]').evaluate((input: HTMLInputElement, id) => {
      input.value = id;
    }, globexKeyId);
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

test.describe("server actions", () => {
  test("a cross-site post and a request carrying only an API key cannot create keys", async ({
    page,
    request,
    baseURL,
  }) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const secret = await keys.createKey(uniqueName("bearer"), ["reports:read", "team:read"]);

    // Capture the browser's real create-key request (action id, encoded form) without letting it through.
    const name = uniqueName("replayed");
    let captured: { headers: Record<string, string>; body: Buffer } | undefined;
    await page.route("**/settings/api-keys", async (route) => {
      const sent = route.request();
      if (sent.method() !== "POST" || !sent.headers()["next-action"]) return route.continue();
      captured = { headers: sent.headers(), body: sent.postDataBuffer()! };
      return route.abort();
    });
    await keys.name.fill(name);
    await keys.scope("team:read").check();
    await keys.create.click();
    await expect.poll(() => captured !== undefined).toBe(true);
    await page.unroute("**/settings/api-keys");
    const action = {
      "next-action": captured!.headers["next-action"]!,
      "content-type": captured!.headers["content-type"]!,
      accept: "text/x-component",
    };

    // The signed-in browser's cookies, but posted from another site: refused with 403 before it reaches the action.
    const crossSite = await page.request.post("/settings/api-keys", {
      headers: { ...action, origin: "https://evil.example" },
      data: captured!.body,
    });
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: "forbidden" });

    // A valid API key and no session cookie: the action sees nobody signed in.
    const keyOnly = await request.post("/settings/api-keys", {
      headers: { ...action, origin: baseURL!, authorization: `Bearer ${secret}`, "x-api-key": secret },
      data: captured!.body,
    });
    expect(await keyOnly.text()).toContain("Your session has ended. Sign in again to manage API keys.");

    await page.goto("/settings/api-keys");
    await expect(keys.row(name)).toHaveCount(0);

    // Control: the very same request from the signed-in browser's own origin does create the key.
    const sameSite = await page.request.post("/settings/api-keys", {
      headers: { ...action, origin: baseURL! },
      data: captured!.body,
    });
    expect(sameSite.status()).toBe(200);
    await page.reload();
    await expect(keys.row(name)).toBeVisible();
  });
});

test.describe("landing and keyboard", () => {
  test("the landing page says what Sundown is and links to sign-in and the docs", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toContainText(
      "Sundown gives your agents and scripts read-only access",
    );
    await expect(page.getByRole("main").getByRole("link", { name: "Read the API docs" })).toHaveAttribute(
      "href",
      "/docs",
    );
    await snap(page, testInfo, "landing");
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fsettings%2Fapi-keys$/);
  });

  test("signing in and creating a key work from the keyboard alone", async ({ page, signInPage }) => {
    await signInPage.goto("/settings/api-keys");
    await signInPage.email.focus();
    await page.keyboard.type(USERS.globexFounder);
    await page.keyboard.press("Tab");
    await expect(signInPage.password).toBeFocused();
    await page.keyboard.type("sundown-demo");
    await page.keyboard.press("Enter");
    const keys = new ApiKeysPage(page);
    await expect(keys.heading).toBeVisible();

    const name = uniqueName("keyboard");
    await keys.name.focus();
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    await expect(keys.scope("reports:read")).toBeFocused();
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await expect(keys.scope("team:read")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(keys.expiry).toBeFocused();
    await expect(keys.expiry).toHaveValue("90d");
    await page.keyboard.press("Tab");
    await expect(keys.create).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(keys.secret).toHaveValue(/^sdn_sk_/);
    await expect(keys.row(name).getByRole("list", { name: "Scopes" })).toHaveText("reports:read");
  });
});
