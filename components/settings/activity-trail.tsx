import type { ReactNode } from "react";
import { formatDateTime, machineTime } from "../format";

interface Props<Event extends { id: string; createdAt: Date }> {
  /** The heading's id, which also names the list. */
  titleId: string;
  /** What the trail records, beside the heading. */
  summary: string;
  /** What shows while nothing has happened yet. */
  empty: string;
  /** Newest first. */
  events: Event[];
  /** One event as a line of text: who did what to which. */
  children: (event: Event) => ReactNode;
}

/** A settings page's "Activity": who changed what, and when, one line each. */
export function ActivityTrail<Event extends { id: string; createdAt: Date }>(props: Props<Event>) {
  const { titleId, summary, empty, events, children: describe } = props;
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="section-head">
        <h2 id={titleId}>Activity</h2>
        <span className="muted">{summary}</span>
      </div>
      {events.length === 0 ? (
        <p className="empty" style={{ margin: 0 }}>
          {empty}
        </p>
      ) : (
        <ol className="audit-list" aria-labelledby={titleId}>
          {events.map((event) => (
            <li key={event.id}>
              <span>{describe(event)}</span>
              <time className="muted nowrap" dateTime={machineTime(event.createdAt)}>
                {formatDateTime(event.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
