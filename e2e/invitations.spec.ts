import { expect, signInToKeys, test, USERS, uniqueName } from "./fixtures";

// One-time links in a real browser (issue 36): a founder makes a link in Settings → Team → Invitations, the invited
// person opens it in their own browser, sets a password and lands signed in; the link then says it was used. The
// pages are photographed at 1280 and 390 px wide (test-results/), to be looked at.

const PASSWORD = "copper lantern meadow forty";

test("a founder invites a lead, who opens the link, sets a password and lands signed in", async ({
  page,
  newSession,
}, testInfo) => {
  await signInToKeys(page, USERS.acmeFounder);
  await page.goto("/settings/team/invitations");
  await expect(page.getByRole("heading", { level: 1, name: "Invitations" })).toBeVisible();
  const email = `${uniqueName("lena")}@acme.example`;
  await page.getByLabel("Email").fill(email);
  // A founder may grant every role.
  await expect(page.getByLabel("Role").locator("option")).toHaveText(["Founder", "Lead", "Member"]);
  await page.getByLabel("Role").selectOption("lead");
  await page.getByRole("button", { name: "Make link" }).click();
  const linkField = page.getByLabel(`Link for ${email} (lead)`);
  await expect(linkField).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
  await expect(page.getByText("Mail is off on this Sundown, so send it yourself.")).toBeVisible();
  const link = await linkField.inputValue();
  expect(link).toMatch(/\/invite\/sdn_in_[0-9A-Za-z]{38}$/);
  await expect(
    page.getByRole("table", { name: "Pending links" }).getByRole("rowheader", { name: email }),
  ).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`invitations-page-${width}.png`), fullPage: true });
  }

  const invited = await newSession();
  await invited.goto(link);
  await expect(invited.getByRole("heading", { level: 1, name: "Join Acme Robotics" })).toBeVisible();
  await expect(invited.getByText("as a lead")).toBeVisible();
  for (const width of [1280, 390]) {
    await invited.setViewportSize({ width, height: 900 });
    await invited.screenshot({ path: testInfo.outputPath(`link-page-${width}.png`), fullPage: true });
  }
  await invited.getByLabel("Your name").fill("Lena Park");
  // Too easy to guess: refused on the page, the link still open.
  await invited.getByLabel("Password").fill("password1234");
  await invited.getByRole("button", { name: "Join and sign in" }).click();
  await expect(invited.getByRole("form", { name: "Join Acme Robotics" }).getByRole("alert")).toContainText(
    "too easy to guess",
  );
  await invited.getByLabel("Password").fill(PASSWORD);
  await invited.getByRole("button", { name: "Join and sign in" }).click();
  await expect(invited).toHaveURL(/\/settings\/api-keys$/);
  await expect(invited.getByText("Signed in as Lena Park")).toBeVisible();

  // Used: the link says so and offers nothing, to anyone.
  await invited.goto(link);
  await expect(invited.getByRole("heading", { level: 1, name: "This link has been used" })).toBeVisible();
  await expect(invited.getByLabel("Password")).toHaveCount(0);
  await invited.screenshot({ path: testInfo.outputPath("link-used-390.png"), fullPage: true });
});

test("a lead may not make a founder's link", async ({ page }) => {
  await signInToKeys(page, USERS.acmeLead);
  await page.goto("/settings/team/invitations");
  await expect(page.getByLabel("Role").locator("option")).toHaveText(["Lead", "Member"]);
});
