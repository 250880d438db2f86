import { expect, snap, test, uniqueName, USERS } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";
import { TeamPage } from "./pages/team-page";

// Issue 38 in Settings: a founder sets when the organization's reports are written and a KPI target; a lead sees
// those settings without forms, and sets a person's absence, which the roster shows as "away" today.

test("a founder sets the cutoff, the working days and a KPI target", async ({ page }, testInfo) => {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/organization");
  await signIn.signIn(USERS.globexFounder);
  await expect(page.getByRole("heading", { level: 1, name: "Organization" })).toBeVisible();

  const schedule = page.getByRole("region", { name: "When reports are written" });
  await schedule.getByLabel("Cutoff").fill("17:30");
  await schedule.getByLabel("Saturday").check();
  await schedule.getByLabel("Friday").uncheck();
  await schedule.getByRole("button", { name: "Save" }).click();
  await expect(schedule.getByRole("status")).toHaveText("Saved.");
  await expect(page.getByRole("list", { name: "Activity" })).toContainText("changed the working days of");

  // No day at all is refused beside the days, and nothing changes.
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Saturday"])
    await schedule.getByLabel(day).uncheck();
  await schedule.getByRole("button", { name: "Save" }).click();
  await expect(schedule.locator("#working-day-1-error")).toHaveText("Choose at least one working day.");

  const kpi = uniqueName("Signups");
  const targets = page.getByRole("region", { name: "KPI targets" });
  await targets.getByLabel("KPI", { exact: true }).fill(kpi);
  await targets.getByLabel("Target", { exact: true }).fill("250");
  await targets.getByLabel("On track when the value is").selectOption("at_least");
  await targets.getByLabel("Unit (optional)").fill("signups");
  await targets.getByRole("button", { name: "Set target" }).click();
  await expect(targets.getByRole("status")).toHaveText(`The target of ${kpi} is set.`);
  const row = page.getByRole("table", { name: "KPI targets" }).getByRole("row").filter({ hasText: kpi });
  await expect(row).toContainText("250");
  await expect(row).toContainText("at least the target");

  await page.reload();
  await expect(page.getByRole("region", { name: "When reports are written" }).getByLabel("Cutoff")).toHaveValue(
    "17:30",
  );
  await expect(page.getByLabel("Saturday")).toBeChecked();
  await expect(page.getByLabel("Friday")).not.toBeChecked();
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "organization-day-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("button", { name: `Remove the target of ${kpi}` }).click();
  await expect(page.getByRole("table", { name: "KPI targets" }).getByRole("row").filter({ hasText: kpi })).toHaveCount(
    0,
  );
});

test("a lead sees the organization's settings without forms, and sets a member's absence", async ({
  page,
}, testInfo) => {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/organization");
  await signIn.signIn(USERS.acmeLead);
  await expect(page.getByText("Reports are written at")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Set target" })).toHaveCount(0);

  const team = new TeamPage(page);
  await team.goto();
  await team.edit("Grace Kim");
  const absences = page.getByRole("region", { name: "Absences" });
  const today = new Date().toISOString().slice(0, 10);
  const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  // The last day before the first is refused beside it.
  await absences.getByLabel("Away from").fill(later);
  await absences.getByLabel("Until (included)").fill(today);
  await absences.getByRole("button", { name: "Add absence" }).click();
  await expect(absences.locator("#absence-last-day-error")).toHaveText("The last day cannot be before the first.");
  await absences.getByLabel("Away from").fill(today);
  await absences.getByLabel("Until (included)").fill(later);
  await absences.getByRole("button", { name: "Add absence" }).click();
  await expect(absences.getByRole("status")).toHaveText(`Away from ${today} to ${later}.`);
  await expect(absences.getByRole("listitem").filter({ hasText: `${today} to ${later}` })).toBeVisible();
  await snap(page, testInfo, "absences-1280");

  await page.getByRole("link", { name: "← The whole team" }).click();
  await expect(team.row("Grace Kim")).toContainText(`away ${today} to ${later}`);
  await expect(team.row("Aisha Khan")).not.toContainText("away");
});
