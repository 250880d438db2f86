import { expect, type Locator, type Page } from "@playwright/test";
import { SettingsSectionPage } from "./settings-section-page";

/** Settings → Team, and a person's page, as a founder or lead sees them. */
export class TeamPage extends SettingsSectionPage {
  readonly roster: Locator;
  readonly rosterFile: Locator;
  readonly preview: Locator;
  readonly confirmImport: Locator;
  readonly importSection: Locator;

  constructor(page: Page) {
    super(page, "/settings/team", "Team");
    this.roster = page.getByRole("table", { name: "People" });
    this.importSection = page.getByRole("region", { name: "Import from a file" });
    this.rosterFile = this.importSection.getByLabel("Roster file");
    this.preview = this.importSection.getByRole("button", { name: "Preview" });
    this.confirmImport = this.importSection.getByRole("button", { name: "Import" });
  }

  row(name: string): Locator {
    return this.roster.getByRole("row").filter({ hasText: name });
  }

  /** Uploads a roster file and waits for its preview, which writes nothing. */
  async previewImport(name: string, csv: string) {
    await this.rosterFile.setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csv) });
    await this.preview.click();
    await expect(this.importSection.getByRole("status")).toContainText("Nothing is written until you import.");
  }

  /** Opens a person's page from the roster. */
  async edit(name: string) {
    await this.row(name)
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    await expect(this.page.getByRole("heading", { level: 1, name: `Team: ${name}` })).toBeVisible();
  }

  async deactivate(name: string) {
    await this.page.getByRole("button", { name: `Deactivate ${name}` }).click();
    await expect(this.page.getByRole("button", { name: `Reactivate ${name}` })).toBeVisible();
  }
}
