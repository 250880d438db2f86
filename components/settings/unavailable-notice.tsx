import { DATABASE_UNAVAILABLE } from "@/lib/settings/action";

/**
 * A settings page while its database does not answer: why nothing is shown (the API's 503, said on the page; an
 * App Router page cannot answer 503 itself).
 */
export function UnavailableNotice({ title }: { title: string }) {
  return (
    <section className="card notice" role="alert" aria-labelledby="unavailable-title">
      <h2 id="unavailable-title">{title}</h2>
      <p style={{ marginBottom: 0 }}>{DATABASE_UNAVAILABLE.replace(", so nothing was changed", "")}</p>
    </section>
  );
}
