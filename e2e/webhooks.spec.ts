import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { expect, signInToKeys, snap, test, uniqueName, USERS } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";
import { WebhooksPage } from "./pages/webhooks-page";

// Settings → Webhooks in a real browser against the production build, delivering to a receiver this spec runs on
// loopback (playwright.config.ts lists 127.0.0.1:* in SUNDOWN_WEBHOOK_ALLOW_HOSTS for it), each delivery verified
// with the standardwebhooks library as a customer's receiver would.

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A receiver that takes every delivery with 200 and remembers it. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "/",
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** What reached one endpoint's path. */
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;

test.beforeAll(async () => {
  receiver = await startReceiver();
});

test.afterAll(async () => {
  await receiver.close();
});

async function signInToWebhooks(page: Page, email: string): Promise<WebhooksPage> {
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/webhooks");
  await signIn.signIn(email);
  await expect(page).toHaveURL(/\/settings\/webhooks$/);
  return new WebhooksPage(page);
}

/** The deliveries page is read again until the server's delivery loop has made the attempt (within seconds). */
async function waitForAttempts(webhooks: WebhooksPage, type: string, status: number, count: number) {
  await expect(async () => {
    await webhooks.page.reload();
    await expect(webhooks.attemptRows(type, status)).toHaveCount(count, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test.describe("webhooks as a lead", () => {
  test("an endpoint is added with its secret shown once, pinged, verified, redelivered, disabled and deleted", async ({
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // The keys and webhooks pages link to each other in the settings navigation.
    await signInToKeys(page, USERS.acmeLead);
    const nav = page.getByRole("navigation", { name: "Settings" });
    await nav.getByRole("link", { name: "Webhooks" }).click();
    const webhooks = new WebhooksPage(page);
    await expect(webhooks.heading).toBeVisible();
    await nav.getByRole("link", { name: "API keys" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await nav.getByRole("link", { name: "Webhooks" }).click();
    await expect(webhooks.heading).toBeVisible();

    const path = `/${uniqueName("hook")}`;
    const url = `${receiver.base}${path}`;
    const secret = await webhooks.addEndpoint(url);
    await expect(page.getByText("It will not be shown again.")).toBeVisible();
    await webhooks.copy.click();
    await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const row = webhooks.row(url);
    await expect(row).toContainText("report.published");
    await expect(row).toContainText("Enabled");
    await expect(row).toContainText("by Dev Patel");
    await expect(webhooks.latestActivityAbout(url)).toContainText(`Dev Patel added ${url}`);
    await snap(page, testInfo, "01-endpoint-added-secret-shown-once");

    // The secret lived in that one response only.
    await page.reload();
    await expect(webhooks.secret).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(secret);

    await webhooks.button(url, "Send ping").click();
    await expect(row.getByRole("status")).toContainText("Ping queued.");
    await row.getByRole("link", { name: "See its attempt" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
    await expect(page.locator("main")).toContainText(url);
    await waitForAttempts(webhooks, "ping", 200, 1);
    await expect(webhooks.attemptRows("ping", 200)).toContainText("Delivered");
    // The receiver's answer, as stored, is shown with the attempt.
    await expect(webhooks.attemptRows("ping", 200).locator("code", { hasText: /^ok$/ })).toBeVisible();
    await snap(page, testInfo, "02-ping-delivered");

    // What the receiver got is a Standard Webhooks delivery, signed with the secret shown once.
    const [ping] = receiver.at(path);
    expect(ping).toBeDefined();
    const endpointId = page.url().split("/").at(-1);
    expect(new Webhook(secret).verify(ping!.body, ping!.headers)).toMatchObject({
      type: "ping",
      data: { endpoint_id: endpointId },
    });

    // Redelivered: the same event again (same webhook-id), freshly signed, listed as a second attempt.
    await webhooks
      .attemptRows("ping", 200)
      .getByRole("button", { name: /^Redeliver ping/ })
      .click();
    await expect(page.getByText("Queued: sending now.")).toBeVisible();
    await waitForAttempts(webhooks, "ping", 200, 2);
    const [first, again] = receiver.at(path);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(new Webhook(secret).verify(again!.body, again!.headers)).toMatchObject({ type: "ping" });

    await page.getByRole("link", { name: "← All webhook endpoints" }).click();
    await expect(webhooks.heading).toBeVisible();
    await webhooks.button(url, "Disable").click();
    await expect(row).toContainText("Disabled by a person");
    await expect(webhooks.button(url, "Enable")).toBeVisible();
    await expect(webhooks.latestActivityAbout(url)).toContainText(`Dev Patel disabled ${url}`);
    await page.screenshot({ path: "/tmp/webhooks-page.png", fullPage: true });
    await snap(page, testInfo, "03-endpoint-disabled");

    await webhooks.button(url, "Delete").click();
    const dialog = webhooks.deleteDialog(url);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await snap(page, testInfo, "04-delete-confirmation");
    await dialog.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: "Endpoints", exact: true })).toBeFocused();
    await expect(row).toHaveCount(0);
    await expect(webhooks.latestActivityAbout(url)).toContainText(`Dev Patel deleted ${url}`);
  });

  test("rolling the secret shows the new one once, and both sign deliveries through the overlap", async ({
    page,
  }, testInfo) => {
    const webhooks = await signInToWebhooks(page, USERS.acmeFounder);
    const path = `/${uniqueName("roll")}`;
    const url = `${receiver.base}${path}`;
    const old = await webhooks.addEndpoint(url);

    await webhooks.button(url, "Roll secret").click();
    const dialog = webhooks.rollDialog(url);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    const overlap = dialog.getByLabel("The old secret keeps signing for");
    await expect(overlap).toHaveValue("24h");
    await overlap.selectOption({ label: "1 hour" });
    await dialog.getByRole("button", { name: "Roll secret" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: `Secret of ${url} rolled` })).toBeFocused();
    const rolled = await webhooks.rolledSecret(url).inputValue();
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(old);
    await expect(webhooks.row(url)).toContainText(/Previous secret signs until .* UTC/);
    await expect(webhooks.latestActivityAbout(url)).toContainText(`Maya Chen rolled the signing secret of ${url}`);
    await snap(page, testInfo, "05-secret-rolled");

    await webhooks.button(url, "Send ping").click();
    await expect.poll(() => receiver.at(path).length, { timeout: 20_000 }).toBe(1);
    const [ping] = receiver.at(path);
    expect(new Webhook(rolled).verify(ping!.body, ping!.headers)).toMatchObject({ type: "ping" });
    expect(new Webhook(old).verify(ping!.body, ping!.headers)).toMatchObject({ type: "ping" });

    await webhooks.button(url, "Delete").click();
    await webhooks.deleteDialog(url).getByRole("button", { name: "Delete endpoint" }).click();
    await expect(webhooks.row(url)).toHaveCount(0);
  });

  test("the form says which URL rule is broken, next to the field, and adds nothing", async ({ page }, testInfo) => {
    const webhooks = await signInToWebhooks(page, USERS.acmeLead);
    await webhooks.add.click();
    await expect(webhooks.formAlert).toContainText("The endpoint was not added");
    await expect(page.getByText("Enter the URL that will receive the webhooks.")).toBeVisible();
    await expect(page.getByText("Choose at least one event.")).toBeVisible();
    await expect(webhooks.url).toBeFocused();

    const url = "http://203.0.113.10/hook";
    await webhooks.url.fill(url);
    await webhooks.event("report.published").check();
    await webhooks.add.click();
    await expect(page.getByText("Use an https:// URL: plain http is only allowed for hosts")).toBeVisible();
    await expect(webhooks.url).toHaveAttribute("aria-invalid", "true");
    await expect(webhooks.url).toHaveValue(url);
    await expect(webhooks.event("report.published")).toBeChecked();
    await expect(webhooks.row(url)).toHaveCount(0);
    await snap(page, testInfo, "06-url-rule-inline");
  });
});

test("the webhooks page fits a phone-sized screen", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const webhooks = await signInToWebhooks(page, USERS.acmeLead);
  // A long URL without a single space must not push the page sideways: the table scrolls inside its own box.
  const url = `${receiver.base}/${uniqueName("mobile")}-`.padEnd(200, "x");
  await webhooks.addEndpoint(url);
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow()).toBe(0);
  await snap(page, testInfo, "07-mobile");
  // The deliveries page too, with an attempt and its answer.
  await webhooks.button(url, "Send ping").click();
  const attempt = webhooks.row(url).getByRole("link", { name: "See its attempt" });
  await page.goto((await attempt.getAttribute("href"))!);
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await waitForAttempts(webhooks, "ping", 200, 1);
  expect(await overflow()).toBe(0);
  await snap(page, testInfo, "08-mobile-deliveries");
  await page.getByRole("link", { name: "← All webhook endpoints" }).click();
  await webhooks.button(url, "Delete").click();
  await webhooks.deleteDialog(url).getByRole("button", { name: "Delete endpoint" }).click();
  await expect(webhooks.row(url)).toHaveCount(0);
});

test("a member is told that only founders and leads manage webhooks", async ({ page }) => {
  const webhooks = await signInToWebhooks(page, USERS.acmeMember);
  await expect(webhooks.heading).toBeVisible();
  await expect(page.getByRole("heading", { name: "Only founders and leads manage webhooks" })).toBeVisible();
  await expect(webhooks.add).toHaveCount(0);
  await expect(webhooks.endpointsTable).toHaveCount(0);
});
