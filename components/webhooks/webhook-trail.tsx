import type { ActivityItem } from "@/lib/data/activity";
import type { WebhookEndpointAction } from "@/lib/data/webhook-endpoints";
import { ActivityTrail } from "../settings/activity-trail";
import { AUTOMATIC_REASONS } from "./disabled-reasons";

const VERBS: Record<WebhookEndpointAction, string> = {
  created: "added",
  enabled: "enabled",
  disabled: "disabled",
  secret_rolled: "rolled the signing secret of",
  deleted: "deleted",
};

/** Why Sundown turned the endpoint off, or, for a reason from a later version, its own words. */
const reasonOf = (reason: string) =>
  Object.hasOwn(AUTOMATIC_REASONS, reason) ? AUTOMATIC_REASONS[reason as keyof typeof AUTOMATIC_REASONS] : reason;

/** The endpoints' lines of the organization's trail, newest first: who changed which endpoint, and when. */
export function WebhookTrail({ lines }: { lines: ActivityItem[] }) {
  return (
    <ActivityTrail
      summary="Endpoints added, enabled, disabled, rolled and deleted, newest first"
      empty="No webhook activity yet."
      events={lines}
    >
      {(line) => {
        const reason = line.detail?.reason;
        return (
          <>
            <strong>{line.actor}</strong>{" "}
            {Object.hasOwn(VERBS, line.action) ? VERBS[line.action as WebhookEndpointAction] : line.action}{" "}
            <span className="mono">{line.subject.label}</span>
            {typeof reason === "string" && <span className="muted"> ({reasonOf(reason)})</span>}
          </>
        );
      }}
    </ActivityTrail>
  );
}
