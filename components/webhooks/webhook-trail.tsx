import type { WebhookTrailItem } from "@/lib/data/webhook-endpoints";
import { ActivityTrail } from "../settings/activity-trail";
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
    <ActivityTrail
      summary="Endpoints added, enabled, disabled, rolled and deleted, newest first"
      empty="No webhook activity yet."
      events={events}
    >
      {(e) => (
        <>
          <strong>{e.actor}</strong> {VERBS[e.action]} <span className="mono">{e.endpointUrl}</span>
          {e.detail && <span className="muted"> ({reasonOf(e.detail)})</span>}
        </>
      )}
    </ActivityTrail>
  );
}
