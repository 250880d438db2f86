import { expect, type Locator, type Page } from "@playwright/test";
import { SettingsSectionPage } from "./settings-section-page";

/** Settings → Webhooks, and an endpoint's deliveries page, as a founder or lead sees them. */
export class WebhooksPage extends SettingsSectionPage {
  readonly url: Locator;
  readonly add: Locator;
  readonly formAlert: Locator;
  readonly secret: Locator;
  readonly copy: Locator;
  readonly endpointsTable: Locator;
  readonly attempts: Locator;

  constructor(page: Page) {
    super(page, "/settings/webhooks", "Webhooks");
    this.url = page.getByLabel("Endpoint URL");
    this.add = page.getByRole("button", { name: "Add endpoint" });
    const form = page.getByRole("region", { name: "Add an endpoint" });
    this.formAlert = form.getByRole("alert");
    this.secret = form.getByLabel("Signing secret");
    this.copy = form.getByRole("button", { name: /^Cop(y|ied)$/ });
    this.endpointsTable = page.getByRole("table", { name: "Webhook endpoints" });
    this.attempts = page.getByRole("table", { name: "Delivery attempts" });
  }

  event(type: string): Locator {
    return this.page.getByRole("checkbox", { name: new RegExp(`^${type.replace(".", "\\.")}`) });
  }

  row(url: string): Locator {
    return this.page.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: url, exact: true }) });
  }

  /** A row's button, named by its word and the endpoint's URL (the URL is visually hidden). */
  button(url: string, word: string): Locator {
    return this.row(url).getByRole("button", { name: `${word} ${url}`, exact: true });
  }

  /** Adds an endpoint through the form and returns its secret, read from the one-time display. */
  async addEndpoint(url: string, events = ["report.published"]): Promise<string> {
    await this.url.fill(url);
    for (const type of events) await this.event(type).check();
    await this.add.click();
    await expect(this.secret).toHaveValue(/^whsec_[A-Za-z0-9+/]+=*$/);
    await expect(this.row(url)).toBeVisible();
    return this.secret.inputValue();
  }

  deleteDialog(url: string): Locator {
    return this.page.getByRole("dialog", { name: `Delete ${url}?` });
  }

  rollDialog(url: string): Locator {
    return this.page.getByRole("dialog", { name: `Roll the signing secret of ${url}?` });
  }

  /** The one display of the secret a roll of this endpoint produced. */
  rolledSecret(url: string): Locator {
    return this.page.getByRole("region", { name: `Secret of ${url} rolled` }).getByLabel("Signing secret");
  }

  /** The deliveries page's attempt lines of one event type that the receiver answered with `status`. */
  attemptRows(type: string, status: number): Locator {
    return this.attempts
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell", { name: type, exact: true }) })
      .filter({ has: this.page.getByRole("cell", { name: String(status), exact: true }) });
  }
}
