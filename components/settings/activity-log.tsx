import type { ActivityDetail, ActivityItem } from "@/lib/data/activity";
import { ActivityTrail } from "./activity-trail";

interface Props {
  /** The section's lines of the organization's trail (listActivity with its kinds of subject), newest first. */
  lines: ActivityItem[];
  /** How each action reads after who did it, e.g. `{ created: "invited", revoked: "revoked the invitation of" }`. */
  verbs: Record<string, string>;
  /**
   * How a line's facts read, e.g. `({ from, to }) => \`${from} → ${to}\``; by default "fact: value" pairs in the order
   * the database returns them (jsonb keeps no order of its own: shorter names first).
   */
  detail?: (detail: ActivityDetail) => string;
  /** What the trail records, beside the heading. */
  summary: string;
  /** What shows while nothing has happened yet. */
  empty: string;
}

const detailText = (detail: ActivityDetail) =>
  Object.entries(detail)
    .map(([fact, value]) => `${fact.replaceAll("_", " ")}: ${String(value)}`)
    .join(", ");

/** A section's "Activity" from the organization's trail: who did what to which, its facts, and when. */
export function ActivityLog({ lines, verbs, detail = detailText, summary, empty }: Props) {
  return (
    <ActivityTrail summary={summary} empty={empty} events={lines}>
      {(line) => (
        <>
          <strong>{line.actor}</strong> {Object.hasOwn(verbs, line.action) ? verbs[line.action] : line.action}{" "}
          <strong>{line.subject.label}</strong>
          {line.detail && <span className="muted"> ({detail(line.detail)})</span>}
        </>
      )}
    </ActivityTrail>
  );
}
