import type { ActivityItem } from "@/lib/data/activity";
import { formatDateTime } from "../format";
import { ActivityTrail } from "../settings/activity-trail";

const VERBS: Record<string, string> = { created: "created", revoked: "revoked", rolled: "rolled" };

/** A fact of a key's line, when the line holds it as text (lib/data/api-keys.ts writes them). */
const fact = (line: ActivityItem, name: "hint" | "replaces" | "old_key_stops_at") => {
  const value = line.detail?.[name];
  return typeof value === "string" ? value : null;
};

/** The keys' lines of the organization's trail: who created, rolled or revoked which key, and when. */
export function AuditTrail({ lines }: { lines: ActivityItem[] }) {
  return (
    <ActivityTrail
      summary="Key creations, rolls and revocations, newest first"
      empty="No key activity yet."
      events={lines}
    >
      {(line) => {
        const replaces = fact(line, "replaces");
        const stopsAt = fact(line, "old_key_stops_at");
        return (
          <>
            <strong>{line.actor}</strong> {VERBS[line.action] ?? line.action} <strong>{line.subject.label}</strong>{" "}
            <span className="mono muted">{fact(line, "hint")}</span>
            {replaces && (
              <span className="muted">
                {" "}
                (replaces <span className="mono">{replaces}</span>
                {stopsAt && <>; old key accepted until {formatDateTime(new Date(stopsAt))}</>})
              </span>
            )}
          </>
        );
      }}
    </ActivityTrail>
  );
}
