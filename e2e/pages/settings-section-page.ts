import { expect, type Locator, type Page } from "@playwright/test";

/** What every settings section's page has: its heading, the account bar's sign-out, its activity trail. */
export class SettingsSectionPage {
  readonly heading: Locator;
  readonly activity: Locator;
  readonly signOut: Locator;

  constructor(
    readonly page: Page,
    private readonly path: string,
    title: string,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: title });
    this.activity = page.getByRole("list", { name: "Activity" });
    this.signOut = page.getByRole("button", { name: "Sign out" });
  }

  /**
   * The newest line of the activity trail about one subject (a key's unique name, an endpoint's URL). Other tests
   * act in the same organization at the same time, so the trail's very first line may be theirs; among one
   * subject's lines the newest still comes first.
   */
  latestActivityAbout(subject: string): Locator {
    return this.activity.getByRole("listitem").filter({ hasText: subject }).first();
  }

  async goto() {
    await this.page.goto(this.path);
    await expect(this.heading).toBeVisible();
  }
}
