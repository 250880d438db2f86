import type { ReactNode } from "react";
import { formatDateTime, machineTime } from "../format";

interface Props<Event extends { id: string; createdAt: Date }> {
  /** What the trail records, beside the heading. */
  summary: string;
  /** What shows while nothing has happened yet. */
  empty: string;
  /** Newest first. */
  events: Event[];
  /** One event as a line of text: who did what to which. */
  children: (event: Event) => ReactNode;
}

/** The heading's id, which also names the list: one trail per page. */
const TITLE_ID = "activity-title";

/** A settings page's "Activity": who changed what, and when, one line each. */
export function ActivityTrail<Event extends { id: string; createdAt: Date }>(props: Props<Event>) {
  const { summary, empty, events, children: describe } = props;
  return (
    <section className="card" aria-labelledby={TITLE_ID}>
      <div className="section-head">
        <h2 id={TITLE_ID}>Activity</h2>
        <span className="muted">{summary}</span>
      </div>
      {events.length === 0 ? (
        <p className="empty" style={{ margin: 0 }}>
          {empty}
        </p>
      ) : (
        <ol className="audit-list" aria-labelledby={TITLE_ID}>
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
