import { expect, type Locator, type Page } from "@playwright/test";
import { SettingsSectionPage } from "./settings-section-page";

/** Settings → Reports, as a founder or lead sees it. */
export class ReportsPage extends SettingsSectionPage {
  readonly file: Locator;
  readonly replace: Locator;
  readonly previewButton: Locator;
  readonly upload: Locator;
  readonly preview: Locator;
  readonly table: Locator;
  readonly empty: Locator;

  constructor(page: Page) {
    super(page, "/settings/reports", "Reports");
    this.upload = page.getByRole("region", { name: "Import a file" });
    this.file = this.upload.getByLabel("Import file", { exact: true });
    this.replace = this.upload.getByLabel(/Replace stored reports that differ/);
    this.previewButton = this.upload.getByRole("button", { name: "Preview import" });
    this.preview = this.upload.getByRole("status", { name: "Import preview" });
    this.table = page.getByRole("table", { name: "Reports" });
    this.empty = page.getByRole("heading", { name: "No reports match these filters" });
  }

  /** The list filtered to one day, through its own form. */
  async showDay(day: string) {
    await this.page.getByLabel(/^Day \(/).fill(day);
    await this.page.getByRole("button", { name: "Show reports" }).click();
    await expect(this.page).toHaveURL(new RegExp(`[?&]day=${day}`));
  }

  /** Chooses an import file (as the browser's file picker would hand it over) and asks for its preview. */
  async previewFile(name: string, reports: unknown, { replace = false } = {}) {
    await this.file.setInputFiles({
      name,
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(reports, null, 2)),
    });
    if (replace) await this.replace.check();
    await this.previewButton.click();
  }

  /** The confirm button of the preview: "Import 2 reports". */
  confirm(count: number): Locator {
    return this.preview.getByRole("button", { name: `Import ${count} report${count === 1 ? "" : "s"}` });
  }

  rows(): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell") });
  }

  /** A row's button, named by its word and the report it acts on (visually hidden). */
  rowButton(row: Locator, word: "Delete" | "View"): Locator {
    return row.getByRole(word === "Delete" ? "button" : "link", { name: new RegExp(`^${word} the `) });
  }

  deleteDialog(): Locator {
    return this.page.getByRole("dialog", { name: /^Delete the .* report about .*\?$/ });
  }
}
