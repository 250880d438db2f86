import type { ApiKeyEventItem } from "@/lib/data/api-keys";
import { formatDateTime, machineTime } from "../format";

const VERBS = { created: "created", revoked: "revoked", rolled: "rolled" } as const;

export function AuditTrail({ events }: { events: ApiKeyEventItem[] }) {
  return (
    <section className="card" aria-labelledby="audit-title">
      <div className="section-head">
        <h2 id="audit-title">Activity</h2>
        <span className="muted">Key creations, rolls and revocations, newest first</span>
      </div>
      {events.length === 0 ? (
        <p className="empty" style={{ margin: 0 }}>
          No key activity yet.
        </p>
      ) : (
        <ol className="audit-list" aria-labelledby="audit-title">
          {events.map((e) => (
            <li key={e.id}>
              <span>
                <strong>{e.actor}</strong> {VERBS[e.action]} <strong>{e.keyName}</strong>{" "}
                <span className="mono muted">{e.keyHint}</span>
                {e.replaced && (
                  <span className="muted">
                    {" "}
                    (replaces <span className="mono">{e.replaced.hint}</span>
                    {e.replaced.stopsAt && <>; old key accepted until {formatDateTime(e.replaced.stopsAt)}</>})
                  </span>
                )}
              </span>
              <time className="muted nowrap" dateTime={machineTime(e.createdAt)}>
                {formatDateTime(e.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
