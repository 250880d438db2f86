import { bearer, expect, signInToKeys, snap, test, uniqueName, USERS } from "./fixtures";
import { hintOf } from "./pages/api-keys-page";

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
    await expect(keys.latestActivityAbout(name)).toContainText(`Maya Chen created ${name}`);
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
    await expect(page.getByRole("heading", { name: "Keys", exact: true })).toBeFocused();
    // A revoked key leaves the keys in use for the collapsed list below them.
    await expect(keys.keysTable.getByRole("rowheader", { name, exact: true })).toHaveCount(0);
    await keys.showInactive();
    await expect(keys.row(name).getByRole("cell", { name: "Revoked" })).toBeVisible();
    await expect(keys.row(name).getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
    await expect(keys.latestActivityAbout(name)).toContainText(`Maya Chen revoked ${name}`);
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
    await keys.expireOn("2020-01-01");
    await keys.create.click();
    await expect(keys.formAlert).toContainText("The key was not created");
    await expect(page.getByText("Enter a name for the key.")).toBeVisible();
    await expect(page.getByText("Choose at least one scope: reports:read, team:read.")).toBeVisible();
    await expect(page.getByText("Choose a time in the future")).toBeVisible();
    await expect(keys.name).toBeFocused();
    await expect(keys.name).toHaveAttribute("aria-invalid", "true");
    await expect(keys.expiry).toHaveValue("date");
    await expect(keys.expires).toHaveValue("2020-01-01");
    await snap(page, testInfo, "06-inline-errors");

    await keys.name.fill("x".repeat(64));
    await keys.scope("team:read").check();
    // "On a date…" without a date is a missing date, never a key that does not expire.
    await keys.expires.fill("");
    await keys.create.click();
    await expect(page.getByText("Choose a date, or choose never for a key that does not expire.")).toBeVisible();
    await keys.expiry.selectOption("never");
    await keys.create.click();
    await expect(keys.secret).toHaveValue(/^sdn_sk_/);
  });

  test("a name with no visible character is refused, saying why", async ({ page }) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    for (const invisible of ["\u3164\u3164", "\u2800", "\uFE0F", "\u0301\u0308"]) {
      await keys.name.fill(invisible);
      await keys.scope("team:read").check();
      await keys.create.click();
      await expect(keys.formAlert).toContainText("The key was not created");
      await expect(
        page.getByText(
          "Use at least one visible character: this name is made only of blank or invisible characters, so it would look empty.",
        ),
      ).toBeVisible();
      await expect(keys.name).toHaveAttribute("aria-invalid", "true");
      await expect(keys.secret).toHaveCount(0);
    }
  });

  test("two keys of one name: each row's buttons name their key by its hint, and act on that key only", async ({
    page,
    request,
  }) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const name = uniqueName("twin-agent");
    const first = await keys.createKey(name, ["reports:read"]);
    const second = await keys.createKey(name, ["reports:read"]);
    for (const secret of [first, second]) {
      for (const verb of ["Roll", "Revoke"]) {
        const button = page.getByRole("button", { name: `${verb} ${name} (${hintOf(secret)})`, exact: true });
        await expect(button).toHaveCount(1);
        await expect(keys.keyRow(secret).getByRole("button", { name: `${verb} ${name}` })).toHaveAccessibleName(
          `${verb} ${name} (${hintOf(secret)})`,
        );
      }
    }

    await page.getByRole("button", { name: `Revoke ${name} (${hintOf(first)})`, exact: true }).click();
    const dialog = keys.revokeDialog(name);
    await expect(dialog).toContainText(hintOf(first));
    await expect(dialog).not.toContainText(hintOf(second));
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog).toBeHidden();
    expect((await request.get("/api/v1/me", { headers: bearer(first) })).status()).toBe(401);
    expect((await request.get("/api/v1/me", { headers: bearer(second) })).status()).toBe(200);
    await expect(keys.keyRow(second).getByRole("cell", { name: "Active" })).toBeVisible();
  });

  test("rolling a key: the new secret is shown once, both keys work through the overlap, a roll without overlap stops the old key at once", async ({
    page,
    request,
  }, testInfo) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const name = uniqueName("rolling-agent");
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const old = await keys.createKey(name, ["reports:read"], inThreeDays);
    // Expiring within a week: flagged on the row (00:00 UTC of the date is two or three days away).
    await expect(keys.keyRow(old)).toContainText(/Expires in [23] days/);

    // From the keyboard: the row's Roll button opens the dialog on Cancel; the overlap is a native select.
    await keys
      .keyRow(old)
      .getByRole("button", { name: `Roll ${name}` })
      .focus();
    await page.keyboard.press("Enter");
    const dialog = keys.rollDialog(name);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    const overlap = dialog.getByLabel("The old key keeps working for");
    await expect(overlap).toHaveValue("24h");
    await overlap.selectOption({ label: "1 hour" });
    await snap(page, testInfo, "08-roll-confirmation");
    await dialog.getByRole("button", { name: "Roll key" }).click();
    await expect(dialog).toBeHidden();

    await expect(page.getByRole("heading", { name: `Key “${name}” rolled` })).toBeFocused();
    const rolled = keys.rolledSecret(name);
    await expect(rolled).toHaveValue(/^sdn_sk_[0-9A-Za-z]{38}$/);
    const secret = await rolled.inputValue();
    expect(secret).not.toBe(old);
    await expect(keys.keyRow(old)).toContainText(/Rolled\s*stops at .* UTC\s*replaced by/);
    await expect(
      keys.keyRow(old).getByRole("link", { name: `${secret.slice(0, 11)}…${secret.slice(-4)}` }),
    ).toBeVisible();
    await expect(keys.keyRow(old).getByRole("button", { name: `Roll ${name}` })).toHaveCount(0);
    await expect(keys.keyRow(secret)).toContainText(/Active\s*Expires in [23] days/);
    await expect(keys.latestActivityAbout(name)).toContainText(`Maya Chen rolled ${name}`);
    await snap(page, testInfo, "09-key-rolled");

    // Through the overlap, the API answers both keys alike.
    const answers = await Promise.all(
      [old, secret].map(async (key) => {
        const response = await request.get("/api/v1/reports?limit=2", { headers: bearer(key) });
        return { status: response.status(), body: await response.json() };
      }),
    );
    expect(answers[0]!.status).toBe(200);
    expect(answers[1]).toEqual(answers[0]);

    // The secret lived in that one response only.
    await page.reload();
    await expect(keys.rolledSecret(name)).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(secret);

    // Rolling the new key with no overlap: its successor works, it is refused from now on, like a revoked key.
    await keys
      .keyRow(secret)
      .getByRole("button", { name: `Roll ${name}` })
      .click();
    await keys.rollDialog(name).getByLabel("The old key keeps working for").selectOption("0");
    await keys.rollDialog(name).getByRole("button", { name: "Roll key" }).click();
    await expect(keys.rolledSecret(name)).toHaveValue(/^sdn_sk_/);
    const third = await keys.rolledSecret(name).inputValue();
    const refused = await request.get("/api/v1/me", { headers: bearer(secret) });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "unauthorized", message: "The API key has been revoked." });
    expect((await request.get("/api/v1/me", { headers: bearer(third) })).status()).toBe(200);
    expect((await request.get("/api/v1/me", { headers: bearer(old) })).status()).toBe(200);
    await keys.showInactive();
    await expect(keys.keyRow(secret)).toContainText(/Revoked\s*replaced by/);
  });

  test("the activity trail keeps what a roll set after the old key is revoked during its overlap", async ({ page }) => {
    const keys = await signInToKeys(page, USERS.acmeFounder);
    const name = uniqueName("trail-agent");
    const old = await keys.createKey(name, ["reports:read"]);
    const dialog = await keys.openRoll(name);
    await dialog.getByLabel("The old key keeps working for").selectOption({ label: "7 days" });
    await dialog.getByRole("button", { name: "Roll key" }).click();
    await expect(keys.rolledSecret(name)).toHaveValue(/^sdn_sk_/);
    const rollLine = keys.activity.getByRole("listitem").filter({ hasText: `rolled ${name}` });
    await expect(rollLine).toContainText(`replaces ${hintOf(old)}; old key accepted until`);
    const asRolled = (await rollLine.textContent())!;

    await keys
      .keyRow(old)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    await keys.revokeDialog(name).getByRole("button", { name: "Revoke key" }).click();
    await expect(keys.latestActivityAbout(name)).toContainText(`Maya Chen revoked ${name}`);
    await page.reload();
    await expect(rollLine).toHaveText(asRolled);
  });

  test("the page works on a phone-sized screen", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const keys = await signInToKeys(page, USERS.acmeFounder);
    // The longest name allowed, without a single space, must not push the page sideways either.
    const name = `${uniqueName("mobile")}-`.padEnd(64, "x");
    await keys.createKey(name, ["reports:read"]);
    await expect(keys.create).toBeVisible();
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    await snap(page, testInfo, "07-mobile");

    // The roll dialog and the rolled key's secret fit too; the keys table scrolls inside its own box.
    const dialog = await keys.openRoll(name);
    expect(await overflow()).toBe(0);
    await dialog.getByRole("button", { name: "Roll key" }).click();
    await expect(page.getByRole("heading", { name: `Key “${name}” rolled` })).toBeFocused();
    expect(await overflow()).toBe(0);
    await snap(page, testInfo, "10-mobile-rolled");
  });
});
