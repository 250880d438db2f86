import { expect, test, uniqueName, USERS } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { ReportsPage } from "./pages/reports-page";
import { WebhooksPage } from "./pages/webhooks-page";

// The settings forms post FormData to their server actions (useActionState, lib/settings/action.ts), so they work
// before the page's JavaScript has loaded and with it off: the server runs the action and renders the page with
// its answer. Only what needs a dialog (roll, revoke, delete) waits for JavaScript.
test.use({ javaScriptEnabled: false });

test.describe("settings forms without JavaScript", () => {
  test("a key is created and shown once; a refused form keeps what was typed and says what to fix", async ({
    page,
    signInPage,
  }) => {
    await signInPage.goto("/settings/api-keys");
    await signInPage.signIn(USERS.globexFounder);
    const keys = new ApiKeysPage(page);
    await expect(keys.heading).toBeVisible();

    const refused = uniqueName("no-scope");
    await keys.name.fill(refused);
    await keys.create.click();
    await expect(keys.formAlert).toHaveText("The key was not created. Fix the fields marked below.");
    await expect(page.getByText(/^Choose at least one scope/)).toBeVisible();
    await expect(keys.name).toHaveValue(refused);

    const name = uniqueName("no-js");
    await keys.name.fill(name);
    await keys.scope("team:read").check();
    await keys.create.click();
    await expect(keys.secret).toHaveValue(/^sdn_sk_[0-9A-Za-z]{38}$/);
    await expect(keys.row(name)).toBeVisible();
    await expect(keys.latestActivityAbout(name)).toContainText(`Hank Scorpio created ${name}`);
    await expect(keys.row(refused)).toHaveCount(0);
  });

  test("an endpoint is added, then disabled and enabled by its row's buttons", async ({ page, signInPage }) => {
    await signInPage.goto("/settings/webhooks");
    await signInPage.signIn(USERS.globexLead);
    const webhooks = new WebhooksPage(page);
    await expect(webhooks.heading).toBeVisible();

    // Loopback is allowed for the browser tests (playwright.config.ts); nothing needs to listen there to add it.
    const url = `http://127.0.0.1:9/${uniqueName("no-js")}`;
    await webhooks.addEndpoint(url);
    await webhooks.button(url, "Disable").click();
    await expect(webhooks.row(url)).toContainText("Disabled by a person");
    await webhooks.button(url, "Enable").click();
    await expect(webhooks.row(url)).toContainText("Enabled");
    await expect(webhooks.latestActivityAbout(url)).toContainText("enabled");
  });

  test("a file is previewed, then imported by the preview's button", async ({ page, signInPage }) => {
    await signInPage.goto("/settings/reports");
    await signInPage.signIn(USERS.globexLead);
    const reports = new ReportsPage(page);
    await expect(reports.heading).toBeVisible();
    // A minute of its own in 2040, so no other run's report is this one.
    const at = `2040-01-01T${String(Math.floor(Math.random() * 24)).padStart(2, "0")}:${String(Math.floor(Math.random() * 60)).padStart(2, "0")}:00Z`;
    const report = { headline: `No-JS ${at}`, kpi_status: [], shipped: [], silent: [], slipping: [], blockers: [] };
    await reports.previewFile("no-js.json", [{ scope: "org", generated_at: at, report }]);
    await expect(reports.preview).toContainText("1 would be added");
    await reports.confirm(1).click();
    await expect(reports.upload.getByRole("status")).toHaveText(
      "Imported no-js.json: 1 report added, 0 unchanged, 0 replaced.",
    );
    await reports.showDay("2040-01-01");
    await expect(reports.rows().filter({ hasText: `No-JS ${at}` })).toHaveCount(1);
  });
});
