import { expect, type Locator, type Page } from "@playwright/test";
import { SettingsSectionPage } from "./settings-section-page";

export type Scope = "reports:read" | "team:read";

/** What the page shows of a key: its prefix and first four characters, and its last four. */
export function hintOf(secret: string): string {
  return `${secret.slice(0, 11)}…${secret.slice(-4)}`;
}

export class ApiKeysPage extends SettingsSectionPage {
  readonly name: Locator;
  readonly expiry: Locator;
  readonly expires: Locator;
  readonly create: Locator;
  readonly formAlert: Locator;
  readonly secret: Locator;
  readonly copy: Locator;
  readonly keysTable: Locator;
  readonly inactiveKeys: Locator;

  constructor(page: Page) {
    super(page, "/settings/api-keys", "API keys");
    this.name = page.getByLabel("Name");
    this.expiry = page.getByLabel("Expires", { exact: true });
    this.expires = page.getByLabel("Expires on");
    this.create = page.getByRole("button", { name: "Create key" });
    this.formAlert = page.getByRole("region", { name: "Create a key" }).getByRole("alert");
    this.secret = page.getByRole("region", { name: "Create a key" }).getByLabel(/^New API key/);
    this.copy = page.getByRole("button", { name: /^Cop(y|ied)$/ });
    this.keysTable = page.getByRole("table", { name: "Keys in use" });
    this.inactiveKeys = page.getByText(/^Revoked and expired keys \(\d+\)$/);
  }

  scope(scope: Scope): Locator {
    return this.page.getByRole("checkbox", { name: new RegExp(`^${scope}`) });
  }

  /** The row of the key with this secret: a rolled key and its replacement share their name, not their hint. */
  keyRow(secret: string): Locator {
    return this.page
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell", { name: hintOf(secret), exact: true }) });
  }

  row(name: string): Locator {
    return this.page.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name, exact: true }) });
  }

  /** Picks "On a date…" and types the date (YYYY-MM-DD; empty leaves the field empty). */
  async expireOn(date: string) {
    await this.expiry.selectOption({ label: "On a date…" });
    await this.expires.fill(date);
  }

  /** Creates a key through the form and returns its secret, read from the one-time display. */
  async createKey(name: string, scopes: Scope[], expiresOn?: string): Promise<string> {
    await this.name.fill(name);
    for (const s of scopes) await this.scope(s).check();
    if (expiresOn) await this.expireOn(expiresOn);
    // The previous key's secret stays shown until the new one replaces it.
    const previous = (await this.secret.count()) > 0 ? await this.secret.inputValue() : undefined;
    await this.create.click();
    await expect(this.secret).toHaveValue(/^sdn_sk_[0-9A-Za-z]{38}$/);
    if (previous) await expect(this.secret).not.toHaveValue(previous);
    const secret = await this.secret.inputValue();
    // By its hint, not its name: another key may have the same name.
    await expect(this.keyRow(secret)).toBeVisible();
    await expect(this.keyRow(secret).getByRole("rowheader")).toHaveText(name);
    return secret;
  }

  revokeDialog(name: string): Locator {
    return this.page.getByRole("dialog", { name: `Revoke “${name}”?` });
  }

  async openRevoke(name: string): Promise<Locator> {
    await this.row(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    const dialog = this.revokeDialog(name);
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** Opens the collapsed list of revoked and expired keys. */
  async showInactive() {
    await this.inactiveKeys.click();
  }

  /** The one display of the secret a roll of the key named so produced. */
  rolledSecret(name: string): Locator {
    return this.page.getByRole("region", { name: `Key “${name}” rolled` }).getByLabel(/^New API key/);
  }

  rollDialog(name: string): Locator {
    return this.page.getByRole("dialog", { name: `Roll “${name}”?` });
  }

  async openRoll(name: string): Promise<Locator> {
    await this.row(name)
      .getByRole("button", { name: `Roll ${name}` })
      .click();
    const dialog = this.rollDialog(name);
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** The key's id, as its row's anchor carries it (the row of a key is `#key-<id>`). */
  async keyId(name: string): Promise<string> {
    return (await this.row(name).getAttribute("id"))!.replace(/^key-/, "");
  }
}
