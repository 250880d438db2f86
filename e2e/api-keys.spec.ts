import { bearer, expect, signInToKeys, snap, test, uniqueName, USERS } from "./fixtures";

test.describe("API keys as a founder", () => {
  test("a new key works with exactly its scopes, is shown once, and stops working when revoked", async ({
    page,
    request,
    context,
  }, testInfo) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const keys = await signInToKeys(page, USERS.acmeFounder);
    await snap(page, testInfo, "01-api-keys-page");

    const name = uniqueName("digest-agent");
    const secret = await keys.createKey(name, ["reports:read"]);
    await expect(page.getByText("It will not be shown again.")).toBeVisible();
    await expect(keys.row(name).getByRole("cell", { name: "Active" })).toBeVisible();
    await expect(keys.row(name)).toContainText(`${secret.slice(0, 11)}…${secret.slice(-4)}`);
    await expect(keys.row(name)).toContainText("Maya Chen");
    await expect(keys.activity.getByRole("listitem").first()).toContainText(`Maya Chen created ${name}`);
    await snap(page, testInfo, "02-key-created-secret-shown-once");

    await keys.copy.click();
    await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // Exactly its scopes: identity and reports yes, the roster no.
    const me = await request.get("/api/v1/me", { headers: bearer(secret) });
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ organization: { name: "Acme Robotics" }, scopes: ["reports:read"] });
    const reports = await request.get("/api/v1/reports?limit=1", { headers: bearer(secret) });
    expect(reports.status()).toBe(200);
    const team = await request.get("/api/v1/team", { headers: bearer(secret) });
    expect(team.status()).toBe(403);
    expect(await team.json()).toMatchObject({ error: "insufficient_scope", required_scope: "team:read" });

    // The secret lived only in that one response: after a reload it is gone for good.
    await page.reload();
    await expect(keys.heading).toBeVisible();
    await expect(keys.secret).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(secret);
    await expect(keys.row(name).getByRole("cell", { name: "Active" })).toBeVisible();
    await snap(page, testInfo, "03-after-reload-secret-gone");

    const dialog = await keys.openRevoke(name);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await snap(page, testInfo, "04-revoke-confirmation");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog).toBeHidden();
    await expect(keys.row(name).getByRole("cell", { name: "Revoked" })).toBeVisible();
    await expect(keys.row(name).getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
    await expect(keys.activity.getByRole("listitem").first()).toContainText(`Maya Chen revoked ${name}`);
    await snap(page, testInfo, "05-key-revoked");

    const refused = await request.get("/api/v1/me", { headers: bearer(secret) });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "unauthorized" });
  });

  test("a key with both scopes and an expiry date reads the roster too", async ({ page, request }) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const name = uniqueName("roster-agent");
    const expires = new Date(Date.now() + 30 * 86_400_000);
    const secret = await keys.createKey(name, ["reports:read", "team:read"], expires.toISOString().slice(0, 10));
    const shown = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    }).format(expires);
    await expect(keys.row(name).getByRole("cell", { name: shown })).toBeVisible();
    const team = await request.get("/api/v1/team", { headers: bearer(secret) });
    expect(team.status()).toBe(200);
    expect(await team.json()).toMatchObject({ count: expect.any(Number) });
  });

  test("cancelling the confirmation keeps the key", async ({ page, request }) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const name = uniqueName("keep-me");
    const secret = await keys.createKey(name, ["team:read"]);
    const dialog = await keys.openRevoke(name);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(keys.row(name).getByRole("cell", { name: "Active" })).toBeVisible();
    expect((await request.get("/api/v1/me", { headers: bearer(secret) })).status()).toBe(200);
  });

  test("the create form explains what is wrong, next to the field", async ({ page }, testInfo) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    await keys.expires.fill("2020-01-01");
    await keys.create.click();
    await expect(keys.formAlert).toContainText("The key was not created");
    await expect(page.getByText("Enter a name for the key.")).toBeVisible();
    await expect(page.getByText("Choose at least one scope: reports:read, team:read.")).toBeVisible();
    await expect(page.getByText("Choose a time in the future")).toBeVisible();
    await expect(keys.name).toBeFocused();
    await expect(keys.name).toHaveAttribute("aria-invalid", "true");
    await snap(page, testInfo, "06-inline-errors");

    await keys.name.fill("x".repeat(64));
    await keys.scope("team:read").check();
    await keys.expires.fill("");
    await keys.create.click();
    await expect(keys.secret).toHaveValue(/^sdn_sk_/);
  });

  test("the page works on a phone-sized screen", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const keys = await signInToKeys(page, USERS.acmeFounder);
    // The longest name allowed, without a single space, must not push the page sideways either.
    const name = `${uniqueName("mobile")}-`.padEnd(64, "x");
    await keys.createKey(name, ["reports:read"]);
    await expect(keys.create).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await snap(page, testInfo, "07-mobile");
  });
});
