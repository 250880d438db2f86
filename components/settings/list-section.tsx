import type { ReactNode } from "react";

interface Props {
  /** The heading's id: a dialog that removes a row moves the focus here (the heading is focusable for that). */
  titleId: string;
  title: string;
  /** How many there are, beside the heading; nothing while there are none. */
  tally: ReactNode;
  children: ReactNode;
}

/** A settings page's card of things (keys, endpoints) under a heading that says how many. */
export function ListSection({ titleId, title, tally, children }: Props) {
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="section-head">
        <h2 id={titleId} tabIndex={-1}>
          {title}
        </h2>
        {tally && <span className="muted">{tally}</span>}
      </div>
      {children}
    </section>
  );
}

/** What a list shows while it has nothing in it: that it is empty, and how to fill it. */
export function EmptyList({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      <p style={{ margin: 0 }}>{children}</p>
    </div>
  );
}
