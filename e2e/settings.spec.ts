import { expect, signInToKeys, snap, test, USERS } from "./fixtures";
import { WebhooksPage } from "./pages/webhooks-page";

// The settings as a whole (app/settings/layout.tsx and the sections of lib/settings/sections.ts): the navigation a
// role sees, the header's way in, and the refusal every page of a section gives a role it does not admit.

test.describe("the settings navigation", () => {
  test("lists the sections a lead may open, the current one marked, and follows them", async ({ page }, testInfo) => {
    const keys = await signInToKeys(page, USERS.acmeLead);
    const nav = page.getByRole("navigation", { name: "Settings" });
    await expect(nav.getByRole("link")).toHaveText([
      "API keys",
      "Webhooks",
      "Team",
      "Reports",
      "Ingest tokens",
      "Organization",
    ]);
    await expect(nav.getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Webhooks" })).not.toHaveAttribute("aria-current");
    await snap(page, testInfo, "settings-nav");

    await nav.getByRole("link", { name: "Webhooks" }).click();
    await expect(new WebhooksPage(page).heading).toBeVisible();
    await expect(nav.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "API keys" })).not.toHaveAttribute("aria-current");
    // The account bar is the layout's, on every section.
    await expect(page.getByText("Signed in as Dev Patel")).toBeVisible();

    // The header's Settings leads to the first section the role may open.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    await expect(keys.heading).toBeVisible();
  });

  test("shows a member no section to open; each page of one, its inner pages too, says whom to ask", async ({
    page,
  }, testInfo) => {
    await signInToKeys(page, USERS.acmeMember);
    await expect(page.getByRole("navigation", { name: "Settings" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Only founders and leads manage API keys" })).toBeVisible();

    // An endpoint's deliveries page refuses before it looks the endpoint up: no 404 tells a member what exists.
    await page.goto("/settings/webhooks/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Only founders and leads manage webhooks" })).toBeVisible();
    await expect(page.getByText("Need events for a tool? Ask a founder or lead of Acme Robotics.")).toBeVisible();

    // A person's page refuses before it looks the person up, as the deliveries page does.
    await page.goto("/settings/team/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "Only founders and leads manage the team" })).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    await snap(page, testInfo, "member-deliveries-refused");

    // A report's page refuses the same way, before it reads the report.
    await page.goto("/settings/reports/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { level: 1, name: "Report" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Only founders and leads manage reports" })).toBeVisible();
  });

  test("keeps the organization's own settings to its founders: leads see them, members are refused", async ({
    page,
    newSession,
  }) => {
    await signInToKeys(page, USERS.acmeLead);
    await page.goto("/settings/organization");
    await expect(page.getByText("Only founders change these; ask one of them.")).toBeVisible();
    await expect(page.getByLabel("Time zone", { exact: true })).toHaveCount(0);
    const member = await newSession();
    await signInToKeys(member, USERS.acmeMember);
    await member.goto("/settings/organization");
    await expect(
      member.getByRole("heading", { name: "Only founders change the organization’s settings" }),
    ).toBeVisible();
  });

  test("sends a signed-out visitor to sign in, and back to the page they asked for", async ({ page, signInPage }) => {
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fsettings$/);
    await signInPage.signIn(USERS.globexLead);
    await expect(page).toHaveURL(/\/settings\/api-keys$/);

    await page.context().clearCookies();
    const id = "00000000-0000-4000-8000-000000000000";
    await page.goto(`/settings/webhooks/${id}`);
    await expect(page).toHaveURL(new RegExp(`/signin\\?callbackUrl=%2Fsettings%2Fwebhooks%2F${id}$`));
  });
});
