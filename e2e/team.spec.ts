import { expect, signInToKeys, snap, test, uniqueName, USERS } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";
import { TeamPage } from "./pages/team-page";

// Settings → Team in a real browser against the production build: a founder brings people in from a CSV (a
// preview first, nothing written until confirmed), then deactivates one of them. The people are new ones with
// addresses no other test uses, in the demo organization other specs share, so nobody else's sign-in changes.

async function signInToTeam(page: import("@playwright/test").Page, email: string): Promise<TeamPage> {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/team");
  await signIn.signIn(email);
  await expect(page).toHaveURL(/\/settings\/team$/);
  const team = new TeamPage(page);
  await expect(team.heading).toBeVisible();
  return team;
}

test("a founder imports people from a CSV with a preview, then deactivates one", async ({ page }, testInfo) => {
  const tag = uniqueName("e2e");
  const ana = `Ana ${tag}`;
  const bruno = `Bruno ${tag}`;
  const csv = [
    "name,email,role,department,external,active,chat,phone",
    `${ana},ana.${tag}@acme.example,member,Design,false,true,@ana-${tag},+44 20 7946 0958`,
    `${bruno},bruno.${tag}@acme.example,lead,Sales,true,true,,`,
  ].join("\n");

  const team = await signInToTeam(page, USERS.acmeFounder);
  await expect(page.getByRole("link", { name: "Invitations" })).toHaveAttribute("href", "/settings/team/invitations");
  await team.previewImport("roster.csv", csv);
  await expect(team.importSection.getByRole("listitem").filter({ hasText: ana })).toContainText("Add");
  // The preview wrote nothing.
  await expect(team.row(ana)).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, testInfo, "team-preview-1280");

  await team.confirmImport.click();
  await expect(team.importSection.getByRole("status")).toContainText("Imported: 2 added");
  await expect(team.row(ana)).toContainText("Design");
  await expect(team.row(bruno)).toContainText("external");
  await expect(team.latestActivityAbout("imported the roster")).toContainText("imported");

  await team.edit(ana);
  await expect(page.getByLabel("Chat handles")).toHaveValue(`@ana-${tag}`);
  await snap(page, testInfo, "person-1280");
  await team.deactivate(ana);
  await page.getByRole("link", { name: "← The whole team" }).click();
  await expect(team.row(ana)).toContainText("Deactivated");
  await expect(team.latestActivityAbout(ana)).toContainText("deactivated");
  await snap(page, testInfo, "team-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "team-390");
});

test("a member gets the same refusal the keys page gives", async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/team");
  await signIn.signIn(USERS.acmeMember);
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Only founders and leads manage the team" })).toBeVisible();
  await expect(page.getByRole("table", { name: "People" })).toHaveCount(0);
});

test("a new key comes with ready-to-paste agent setups", async ({ page }, testInfo) => {
  const keys = await signInToKeys(page, USERS.acmeLead);
  const secret = await keys.createKey(uniqueName("agent"), ["team:read"]);
  await page.getByText("Claude Code", { exact: true }).click();
  await expect(page.getByLabel("Claude Code setup")).toContainText(`--header 'Authorization: Bearer ${secret}'`);
  await page.getByText("Codex", { exact: true }).click();
  await expect(page.getByLabel("Codex setup")).toContainText(`SUNDOWN_API_KEY = "${secret}"`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, testInfo, "connect-agent-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "connect-agent-390");
});
