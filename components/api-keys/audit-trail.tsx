import type { ApiKeyEventItem } from "@/lib/data/api-keys";
import { formatDateTime } from "../format";
import { ActivityTrail } from "../settings/activity-trail";

const VERBS = { created: "created", revoked: "revoked", rolled: "rolled" } as const;

export function AuditTrail({ events }: { events: ApiKeyEventItem[] }) {
  return (
    <ActivityTrail
      summary="Key creations, rolls and revocations, newest first"
      empty="No key activity yet."
      events={events}
    >
      {(e) => (
        <>
          <strong>{e.actor}</strong> {VERBS[e.action]} <strong>{e.keyName}</strong>{" "}
          <span className="mono muted">{e.keyHint}</span>
          {e.replaced && (
            <span className="muted">
              {" "}
              (replaces <span className="mono">{e.replaced.hint}</span>
              {e.replaced.stopsAt && <>; old key accepted until {formatDateTime(e.replaced.stopsAt)}</>})
            </span>
          )}
        </>
      )}
    </ActivityTrail>
  );
}
