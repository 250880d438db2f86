import { expect, type Locator, type Page } from "@playwright/test";

const DEMO_PASSWORD = "sundown-demo";

export class SignInPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly form: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Sign in to Sundown" });
    this.form = page.getByRole("form", { name: "Sign in to Sundown" });
    this.email = this.form.getByLabel("Email");
    this.password = this.form.getByLabel("Password");
    this.submit = this.form.getByRole("button", { name: "Sign in" });
    this.error = this.form.getByRole("alert");
  }

  async goto(callbackUrl?: string) {
    await this.page.goto(callbackUrl ? `/signin?${new URLSearchParams({ callbackUrl })}` : "/signin");
    await expect(this.heading).toBeVisible();
  }

  async signIn(email: string, password = DEMO_PASSWORD) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }
}
