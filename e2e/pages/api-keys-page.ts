import { expect, type Locator, type Page } from "@playwright/test";

export type Scope = "reports:read" | "team:read";

export class ApiKeysPage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly expires: Locator;
  readonly create: Locator;
  readonly formAlert: Locator;
  readonly secret: Locator;
  readonly copy: Locator;
  readonly keysTable: Locator;
  readonly activity: Locator;
  readonly signOut: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "API keys" });
    this.name = page.getByLabel("Name");
    this.expires = page.getByLabel("Expires on (optional)");
    this.create = page.getByRole("button", { name: "Create key" });
    this.formAlert = page.getByRole("region", { name: "Create a key" }).getByRole("alert");
    this.secret = page.getByLabel(/^New API key/);
    this.copy = page.getByRole("button", { name: /^Cop(y|ied)$/ });
    this.keysTable = page.getByRole("table");
    this.activity = page.getByRole("list", { name: "Activity" });
    this.signOut = page.getByRole("button", { name: "Sign out" });
  }

  async goto() {
    await this.page.goto("/settings/api-keys");
    await expect(this.heading).toBeVisible();
  }

  scope(scope: Scope): Locator {
    return this.page.getByRole("checkbox", { name: new RegExp(`^${scope}`) });
  }

  row(name: string): Locator {
    return this.page.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name, exact: true }) });
  }

  /** Creates a key through the form and returns its secret, read from the one-time display. */
  async createKey(name: string, scopes: Scope[], expiresOn?: string): Promise<string> {
    await this.name.fill(name);
    for (const s of scopes) await this.scope(s).check();
    if (expiresOn) await this.expires.fill(expiresOn);
    await this.create.click();
    await expect(this.secret).toHaveValue(/^sdn_sk_[0-9A-Za-z]{38}$/);
    await expect(this.row(name)).toBeVisible();
    return this.secret.inputValue();
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

  /** The key's id, as the row's revoke form carries it (hidden inputs have no role to locate them by). */
  async keyId(name: string): Promise<string> {
    return this.row(name).locator('input[name="keyId"]').inputValue();
  }
}
