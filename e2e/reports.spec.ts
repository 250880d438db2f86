import { randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, snap, test, USERS } from "./fixtures";
import { ReportsPage } from "./pages/reports-page";
import { SignInPage } from "./pages/sign-in-page";

// Settings → Reports in a real browser against the production build: a file imported through its preview (nothing
// written until confirmed), a refused file's problems with their places, a report viewed and deleted through the
// confirmation, at a laptop's width and a phone's. Each run uses a day of its own far in the future (other tests
// share the demo organization), and finds its reports by filtering the list to that day.

const content = (headline: string) => ({
  headline,
  kpi_status: [],
  shipped: [{ title: "Release notes" }],
  silent: [],
  slipping: [],
  blockers: [],
});

async function signInToReports(page: Page, email: string): Promise<ReportsPage> {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/reports");
  await signIn.signIn(email);
  await expect(page).toHaveURL(/\/settings\/reports$/);
  const reports = new ReportsPage(page);
  await expect(reports.heading).toBeVisible();
  return reports;
}

for (const { label, width, height } of [
  { label: "laptop", width: 1280, height: 900 },
  { label: "phone", width: 390, height: 844 },
]) {
  test(`a lead imports a file through its preview and deletes a report after confirming (${label}, ${width} px)`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    // A day of this run's own, in 2031-2039.
    const day = `20${randomInt(31, 40)}-0${randomInt(1, 10)}-1${randomInt(0, 10)}`;
    const file = [
      { scope: "org", generated_at: `${day}T09:00:00Z`, report: content(`Morning of ${day}`) },
      { scope: "org", generated_at: `${day}T17:30:00Z`, report: content(`Evening of ${day}`) },
    ];
    const reports = await signInToReports(page, USERS.acmeLead);

    // A file with a problem: named with its place, and nothing to confirm.
    await reports.previewFile("broken.json", [file[0], { ...file[1], generated_at: `${day}T25:00:00Z` }]);
    const refusal = reports.upload.getByRole("alert");
    await expect(refusal).toContainText("broken.json: The file is invalid (1 problem); nothing was imported.");
    await expect(refusal).toContainText("reports[1].generated_at: expected an ISO 8601 timestamp");
    await snap(page, testInfo, `reports-refused-${width}`);

    // The preview says what would happen, and writes nothing.
    await reports.previewFile("week.json", file);
    await expect(reports.preview).toContainText("2 would be added");
    await expect(reports.preview).toContainText("0 unchanged");
    const listed = await page.request.get(`/settings/reports?day=${day}`);
    expect(await listed.text()).toContain("No reports match these filters");
    await snap(page, testInfo, `reports-preview-${width}`);

    await reports.confirm(2).click();
    await expect(reports.upload.getByRole("status")).toHaveText(
      "Imported week.json: 2 reports added, 0 unchanged, 0 replaced.",
    );

    await reports.showDay(day);
    await expect(reports.rows()).toHaveCount(2);
    await expect(reports.rows().first()).toContainText(`Evening of ${day}`);
    await expect(reports.latestActivityAbout("2 reports")).toContainText("Dev Patel imported 2 reports");
    await snap(page, testInfo, `reports-list-${width}`);

    // One report as the API serves it.
    await reports.rowButton(reports.rows().first(), "View").click();
    await expect(page.getByRole("heading", { level: 1, name: "Report" })).toBeVisible();
    await expect(page.getByLabel("The report as the API serves it")).toContainText(`"headline": "Evening of ${day}"`);
    await snap(page, testInfo, `report-view-${width}`);
    await page.goBack();
    await expect(reports.rows()).toHaveCount(2);

    // Delete, after a confirmation that Cancel leaves unconfirmed.
    const evening = reports.rows().filter({ hasText: `Evening of ${day}` });
    await reports.rowButton(evening, "Delete").click();
    await expect(reports.deleteDialog()).toBeVisible();
    await snap(page, testInfo, `reports-delete-dialog-${width}`);
    await reports.deleteDialog().getByRole("button", { name: "Cancel" }).click();
    await expect(reports.deleteDialog()).toBeHidden();
    await expect(reports.rows()).toHaveCount(2);

    await reports.rowButton(evening, "Delete").click();
    await reports.deleteDialog().getByRole("button", { name: "Delete report" }).click();
    await expect(reports.deleteDialog()).toBeHidden();
    await expect(reports.rows()).toHaveCount(1);
    await expect(reports.rows().first()).toContainText(`Morning of ${day}`);
    // Both widths run at once in one organization: this run's line is the one naming its own report.
    await expect(reports.latestActivityAbout(`of ${day}T17:30:00.000Z`)).toContainText(
      `Dev Patel deleted the org report of ${day}T17:30:00.000Z`,
    );
  });
}

test("a file near the page's limit is previewed and imported; a larger one is refused before it is sent", async ({
  page,
}) => {
  const reports = await signInToReports(page, USERS.acmeFounder);
  // A day of its own in 2041; reports whose quotes JSON escapes, as real ones have.
  const day = `2041-0${randomInt(1, 10)}-1${randomInt(0, 10)}`;
  const file = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      scope: "org",
      generated_at: new Date(Date.parse(`${day}T00:00:00Z`) + i * 1000).toISOString(),
      report: { ...content(`Bulk ${i}`), shipped: [{ title: `"Quoted" ${"x".repeat(900)}` }] },
    }));
  const size = (reports: unknown) => Buffer.byteLength(JSON.stringify(reports, null, 2));
  let count = 300;
  while (size(file(count + 10)) < 395_000) count += 10;
  expect(size(file(count))).toBeGreaterThan(380_000);
  await reports.previewFile("near-limit.json", file(count));
  await expect(reports.preview).toContainText(`${count} would be added`);
  await reports.confirm(count).click();
  await expect(reports.upload.getByRole("status")).toHaveText(
    `Imported near-limit.json: ${count} reports added, 0 unchanged, 0 replaced.`,
  );

  await reports.previewFile("too-large.json", file(count + 40));
  await expect(reports.upload.getByRole("alert")).toHaveText(/^The file is larger than this page takes \(400 kB\)/);
});

test("the ingest tokens and organization pages at both widths", async ({ page }, testInfo) => {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/ingest-tokens");
  await signIn.signIn(USERS.acmeFounder);
  await expect(page.getByRole("heading", { level: 1, name: "Ingest tokens" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(`Standup bot ${randomInt(1000, 9999)}`);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel(/New ingest token/)).toHaveValue(/^sdn_it_/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await snap(page, testInfo, `ingest-tokens-${width}`);
  }
  await page.goto("/settings/organization");
  await expect(page.getByRole("heading", { level: 1, name: "Organization" })).toBeVisible();
  await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("UTC");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await snap(page, testInfo, `organization-${width}`);
  }
});
