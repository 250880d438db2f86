import { isValidDate } from "@/lib/schemas/instant";

// A report's instant as the organization reads it: in its time zone, named, so nobody takes it for their own.

export function formatInZone(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (!isValidDate(date)) return "invalid";
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(date);
}
