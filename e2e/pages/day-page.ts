import { expect, type Locator, type Page } from "@playwright/test";

/** "Your day": today's update as its author sees it. */
export class DayPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly save: Locator;
  readonly status: Locator;
  readonly carry: Locator;
  readonly note: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Your day" });
    this.form = page.getByRole("region", { name: "Today’s update" });
    this.save = this.form.getByRole("button", { name: "Save today’s update" });
    this.status = this.form.getByRole("status");
    this.carry = this.form.getByRole("group", { name: /^Still open from/ });
    this.note = this.form.getByLabel("Note");
  }

  async goto() {
    await this.page.goto("/day");
    await expect(this.heading).toBeVisible();
  }

  shipped(n: number): Locator {
    return this.form.getByLabel(`Shipped item ${n}`, { exact: true });
  }

  blocker(n: number): Locator {
    return this.form.getByLabel(`Blocker ${n}`, { exact: true });
  }

  slipping(n: number, part: "item" | "reason" | "due"): Locator {
    const label = { item: `Slipping item ${n}`, reason: "Reason (optional)", due: "Due (optional)" }[part];
    return part === "item"
      ? this.form.getByLabel(label, { exact: true })
      : this.form.locator(`#day-slipping-${part}-${n - 1}`);
  }

  /** One of the previous update's items, by its text: its "Still open" and "Resolved" choices. */
  carried(text: string | RegExp): { open: Locator; resolved: Locator } {
    const item = this.carry.getByRole("group", { name: text });
    return { open: item.getByLabel("Still open"), resolved: item.getByLabel("Resolved") };
  }
}
