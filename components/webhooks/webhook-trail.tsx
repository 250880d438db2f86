import type { WebhookTrailItem } from "@/lib/webhooks/endpoints";
import { formatDateTime, machineTime } from "../format";
import { AUTOMATIC_REASONS } from "./disabled-reasons";

const VERBS: Record<WebhookTrailItem["action"], string> = {
  created: "added",
  enabled: "enabled",
  disabled: "disabled",
  secret_rolled: "rolled the signing secret of",
  deleted: "deleted",
};

/** A detail the trail holds: why Sundown turned the endpoint off, or, from a later version, its own words. */
const reasonOf = (detail: string) =>
  Object.hasOwn(AUTOMATIC_REASONS, detail) ? AUTOMATIC_REASONS[detail as keyof typeof AUTOMATIC_REASONS] : detail;

/** The organization's latest endpoint changes, newest first: who changed what, and when. */
export function WebhookTrail({ events }: { events: WebhookTrailItem[] }) {
  return (
    <section className="card" aria-labelledby="webhook-trail-title">
      <div className="section-head">
        <h2 id="webhook-trail-title">Activity</h2>
        <span className="muted">Endpoints added, enabled, disabled, rolled and deleted, newest first</span>
      </div>
      {events.length === 0 ? (
        <p className="empty" style={{ margin: 0 }}>
          No webhook activity yet.
        </p>
      ) : (
        <ol className="audit-list" aria-labelledby="webhook-trail-title">
          {events.map((e) => (
            <li key={e.id}>
              <span>
                <strong>{e.actor}</strong> {VERBS[e.action]} <span className="mono">{e.endpointUrl}</span>
                {e.detail && <span className="muted"> ({reasonOf(e.detail)})</span>}
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
