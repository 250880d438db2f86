const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** Times are rendered on the server in UTC, so server and browser agree and nothing shifts on hydration. */
export function formatDateTime(date: Date): string {
  return `${DATE_TIME.format(date)} UTC`;
}

export function formatDate(date: Date): string {
  return DATE.format(date);
}

const TIME = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

export function formatTime(date: Date): string {
  return `${TIME.format(date)} UTC`;
}
