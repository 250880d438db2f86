import type { ActivityItem } from "@/lib/data/activity";
import { ActivityLog } from "../settings/activity-log";

const VERBS = { imported: "imported", replaced: "replaced the", deleted: "deleted the" };

/** Imports (from the CLI, this page and ingest tokens), replacements and deletions, newest first. */
export function ReportTrail({ lines }: { lines: ActivityItem[] }) {
  return (
    <ActivityLog
      lines={lines}
      verbs={VERBS}
      summary="Imports, replacements and deletions, newest first"
      empty="No reports imported, replaced or deleted yet."
    />
  );
}
