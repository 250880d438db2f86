import Link from "next/link";
import { connection } from "next/server";
import { CREATE_FIRST_ORGANIZATION, firstSteps } from "@/lib/demo/presence";

const FEATURES = [
  {
    title: "One key per agent",
    body: "Founders and leads create organization-scoped API keys with exactly the scopes an agent needs: reports:read, team:read, or both.",
  },
  {
    title: "REST and MCP",
    body: "The same keys work on the REST API at /api/v1 and on the MCP server at /api/mcp, with the same scopes and rate limits.",
  },
  {
    title: "Read-only and private",
    body: "Agents can read reports and the roster of their own organization and nothing else. Email addresses and chat handles never leave the service.",
  },
];

export default async function LandingPage() {
  // Read per request: the first organization may be created at any moment.
  await connection();
  const steps = await firstSteps();
  return (
    <div className="container landing">
      <section className="hero" aria-labelledby="hero-title">
        <p className="eyebrow">End-of-day reports for AI agents</p>
        <h1 id="hero-title">
          Sundown gives your agents and scripts read-only access to your team&rsquo;s end-of-day reports.
        </h1>
        <p className="lede">
          Shipped work, silent teammates, slipping items, blockers and KPIs, every evening, over a small REST API and an
          MCP server. Each organization&rsquo;s data stays behind its own scoped, revocable API keys.
        </p>
        <div className="actions">
          <Link className="button button--primary" href="/signin?callbackUrl=%2Fsettings%2Fapi-keys">
            Sign in
          </Link>
          <Link className="button button--secondary" href="/docs">
            Read the API docs
          </Link>
        </div>
      </section>
      <section aria-labelledby="features-title" className="features">
        <h2 id="features-title" className="visually-hidden">
          What Sundown does
        </h2>
        <ul className="feature-grid">
          {FEATURES.map((f) => (
            <li key={f.title} className="card">
              <h3>{f.title}</h3>
              <p>{f.body}</p>
            </li>
          ))}
        </ul>
      </section>
      {steps === "create-organization" ? (
        <section aria-labelledby="first-title" className="card try">
          <h2 id="first-title">Create your organization</h2>
          <p>This Sundown has no organization yet. On the server, run:</p>
          <pre>
            <code>{CREATE_FIRST_ORGANIZATION}</code>
          </pre>
          <p>It prints a one-time link where the founder sets their password and signs in.</p>
        </section>
      ) : (
        <section aria-labelledby="try-title" className="card try">
          <h2 id="try-title">Try it in a minute</h2>
          <ol>
            <li>
              Sign in as a founder or lead
              {steps === "demo" && " (on the demo database: founder@acme.example, password sundown-demo)"}.
            </li>
            <li>Create an API key under Settings → API keys and copy it.</li>
            <li>
              Call the API:{" "}
              <code>curl -H &quot;Authorization: Bearer &lt;key&gt;&quot; &lt;this-site&gt;/api/v1/me</code>
            </li>
          </ol>
        </section>
      )}
    </div>
  );
}
