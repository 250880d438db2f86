// Debian's Chromium, launched the same way by the Playwright specs and by the docs page's process test
// (`npx playwright install` cannot download browsers on these machines).

export const CHROMIUM_PATH = process.env.PLAYWRIGHT_CHROMIUM_PATH || "/usr/bin/chromium";

/** Headless in a container: no sandbox or GPU, and no background traffic to Google's update and sync hosts. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
