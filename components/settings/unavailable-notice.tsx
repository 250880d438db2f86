import { DATABASE_UNAVAILABLE } from "@/lib/settings/api-key-actions";

/**
 * A settings page while its database does not answer: the page's heading and why nothing is shown (the API's
 * 503, said on the page; an App Router page cannot answer 503 itself).
 */
export function UnavailableNotice({ heading, title }: { heading: string; title: string }) {
  return (
    <div className="container settings">
      <div className="page-head">
        <h1>{heading}</h1>
      </div>
      <section className="card notice" role="alert" aria-labelledby="unavailable-title">
        <h2 id="unavailable-title">{title}</h2>
        <p style={{ marginBottom: 0 }}>{DATABASE_UNAVAILABLE.replace(", so nothing was changed", "")}</p>
      </section>
    </div>
  );
}
