import type { ReactNode } from "react";

/** A settings page's heading, and what the page is for below it. */
export function SectionHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-head">
      <h1>{title}</h1>
      {children && <p>{children}</p>}
    </div>
  );
}
