import type { Metadata } from "next";
import { headers } from "next/headers";
import { Fragment } from "react";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/auth/scopes";
import { API_VERSION } from "@/lib/api-version";
import { discoveryUrls } from "@/lib/public-urls";
import { baseUrlFromHeaders } from "@/lib/discovery/request-base-url";
import { getEnv } from "@/lib/env";
import { ApiError, ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_MESSAGES, ERROR_STATUS, errorBody } from "@/lib/errors";
import { synopsisOf } from "@/lib/operations/parameters";
import { endpointOf, filterNamesOf, KEYED_OPERATIONS, OPERATIONS } from "@/lib/operations/table";
import { REPORT_LIMIT } from "@/lib/schemas/reports";
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";
import { ATTEMPT_TIMEOUT_MS, FAILING_DISABLES_AFTER_MS, RETRY_DELAYS_MS } from "@/lib/webhooks/schedule";
import { CodeText } from "@/components/code-text";
import { ApiReference } from "./api-reference";
import styles from "./docs.module.css";

export const metadata: Metadata = {
  title: "API docs",
  description: "Quick start, authentication, errors and limits, MCP setup and the full reference of the Sundown API.",
};

const MCP_TOOLS = KEYED_OPERATIONS.map((operation) => {
  const parameters = Object.entries(operation.parameters).map(([name, parameter]) => synopsisOf(name, parameter));
  return {
    name: operation.tool!.name,
    parameters,
    rest: endpointOf(operation),
    scope: operation.scope ?? "any valid key",
  };
});

/** A 403 as the server writes it: the refusal's own message, serialized by errorBody. */
const SCOPE_ERROR_EXAMPLE = JSON.stringify(
  errorBody(
    new ApiError("insufficient_scope", ERROR_MESSAGES.insufficientScope("team:read"), { requiredScope: "team:read" }),
    "5b3f0f5e-2a51-4c7e-9d1b-0c4f3e2a1b6d",
  ),
  null,
  2,
);

const WEBHOOK_ROWS = [
  ...WEBHOOK_EVENT_TYPES.map((type) => ({
    type,
    when: WEBHOOK_EVENTS[type].description,
    scope: WEBHOOK_EVENTS[type].scope as string,
  })),
  { type: "ping", when: "A test delivery, on demand, to one endpoint; not subscribed to.", scope: "—" },
];

/** 300000 → "5 min": the retry waits as the guide shows them. */
function formatWait(ms: number): string {
  const [value, unit] =
    ms % 3_600_000 === 0 ? [ms / 3_600_000, "h"] : ms % 60_000 === 0 ? [ms / 60_000, "min"] : [ms / 1000, "s"];
  return `${value} ${unit}`;
}

/** Names as code, in words: `a`, `b` and `c`. */
function CodeList({ names }: { names: readonly string[] }) {
  return names.map((name, index) => (
    <Fragment key={name}>
      {index === 0 ? "" : index === names.length - 1 ? " and " : ", "}
      <code>{name}</code>
    </Fragment>
  ));
}

function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <figure className={styles.code}>
      <figcaption>{label}</figcaption>
      <pre>
        <code>{children}</code>
      </pre>
    </figure>
  );
}

// /docs – the human guide (server-rendered, readable without JavaScript) followed by the interactive reference.
export default async function DocsPage() {
  const base = baseUrlFromHeaders(await headers());
  const urls = discoveryUrls(base);
  const rateLimit = getEnv().SUNDOWN_RATE_LIMIT;
  const mcpRemote = JSON.stringify(
    { mcpServers: { sundown: { url: urls.mcpEndpoint, headers: { Authorization: "Bearer sdn_sk_…" } } } },
    null,
    2,
  );
  const mcpStdio = JSON.stringify(
    {
      mcpServers: {
        sundown: { command: "npx", args: ["sundown", "mcp"], env: { SUNDOWN_URL: base, SUNDOWN_API_KEY: "sdn_sk_…" } },
      },
    },
    null,
    2,
  );

  return (
    <div className={styles.docs}>
      <div className={`container ${styles.guide}`}>
        <header className={styles.intro}>
          <p className={styles.eyebrow}>Sundown API · v{API_VERSION}</p>
          <h1>Read your team&rsquo;s end-of-day reports from any agent or script</h1>
          <p className={styles.lede}>
            A small, read-only JSON API over your organization&rsquo;s end-of-day reports — what shipped, who went
            quiet, what is slipping, what is blocked, how the KPIs look — and its team roster. The same keys work over
            REST and MCP.
          </p>
          <dl className={styles.facts}>
            <div>
              <dt>Base URL</dt>
              <dd>
                <code>{base}</code>
              </dd>
            </div>
            <div>
              <dt>Machine-readable</dt>
              <dd>
                <a href={urls.openapi}>OpenAPI 3.1</a> · <a href={urls.apiCatalog}>API catalog</a> ·{" "}
                <a href={urls.llmsTxt}>llms.txt</a> · <a href={urls.llmsFullTxt}>llms-full.txt</a> ·{" "}
                <a href={urls.documentationMarkdown}>this guide as markdown</a> ·{" "}
                <a href={urls.agentSkills}>agent skill</a> · <a href={urls.apiRoot}>API root</a>
              </dd>
            </div>
          </dl>
          <nav aria-label="On this page" className={styles.toc}>
            <a href="#quick-start">Quick start</a>
            <a href="#authentication">Authentication</a>
            <a href="#errors-and-limits">Errors and limits</a>
            <a href="#mcp">MCP setup</a>
            <a href="#webhooks">Webhooks</a>
            <a href="#reference">API reference</a>
          </nav>
        </header>

        <section id="quick-start" aria-labelledby="quick-start-title" className={styles.section}>
          <h2 id="quick-start-title">Quick start</h2>
          <ol className={styles.steps}>
            <li>
              <strong>Get a key.</strong> Sign in as a founder or lead, open{" "}
              <a href="/settings/api-keys">Settings → API keys</a>, create a key with the scopes your agent needs and
              copy the secret — it is shown once. (Demo database: sign in as <code>founder@acme.example</code> with
              password <code>sundown-demo</code>.)
            </li>
            <li>
              <strong>Check it.</strong> <code>GET /api/v1/me</code> answers with the key&rsquo;s organization and
              scopes.
            </li>
            <li>
              <strong>Read reports and the roster.</strong> List recent reports, open one by id, fetch the team.
            </li>
          </ol>
          <CodeBlock label="Shell">{`export SUNDOWN_URL=${base}
export SUNDOWN_API_KEY=sdn_sk_…   # the secret you copied

curl -H "Authorization: Bearer $SUNDOWN_API_KEY" $SUNDOWN_URL/api/v1/me
curl -H "Authorization: Bearer $SUNDOWN_API_KEY" "$SUNDOWN_URL/api/v1/reports?limit=5"
curl -H "Authorization: Bearer $SUNDOWN_API_KEY" $SUNDOWN_URL/api/v1/reports/<id>
curl -H "Authorization: Bearer $SUNDOWN_API_KEY" $SUNDOWN_URL/api/v1/team`}</CodeBlock>
          <CodeBlock label="Response of GET /api/v1/reports?limit=1">{`{
  "reports": [
    {
      "id": "5d0e0003-0001-4003-8001-00000000ac3e",
      "scope": "org",
      "scope_target_id": null,
      "generated_at": "2026-11-21T17:30:00.000Z",
      "headline": "Acme Robotics: 2 shipped, 1 slipping, 1 blocker"
    }
  ],
  "count": 1
}`}</CodeBlock>
        </section>

        <section id="authentication" aria-labelledby="authentication-title" className={styles.section}>
          <h2 id="authentication-title">Authentication</h2>
          <p>
            Every endpoint except <code>GET /api/v1</code> needs an organization-scoped API key. Send it as{" "}
            <code>Authorization: Bearer &lt;API_KEY&gt;</code>, or as <code>X-API-Key: &lt;API_KEY&gt;</code> where a
            client cannot set Authorization. Never put a key in a URL. Keys look like <code>sdn_sk_</code> followed by
            38 letters and digits; the last six are a checksum, so a mistyped key is refused at once and secret scanners
            can spot a leaked one.
          </p>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption>Scopes</caption>
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">Grants</th>
                </tr>
              </thead>
              <tbody>
                {SCOPES.map((scope) => (
                  <tr key={scope}>
                    <td data-label="Scope">
                      <code>{scope}</code>
                    </td>
                    <td data-label="Grants">
                      <CodeText text={SCOPE_DESCRIPTIONS[scope]} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className={styles.bullets}>
            <li>
              A key sees only its own organization. <code>GET /api/v1/me</code> works with any valid key.
            </li>
            <li>
              Missing or invalid key: <code>401 unauthorized</code>. Valid key without the scope:{" "}
              <code>403 insufficient_scope</code> with <code>required_scope</code> — checked before anything else, so a
              key without the scope learns nothing about what exists.
            </li>
            <li>
              Only a SHA-256 hash of each key is stored. Revoking a key in Settings takes effect on the next request.
            </li>
            <li>
              There is no OAuth server and no dynamic client registration: keys are created by people, in Settings.
            </li>
          </ul>
        </section>

        <section id="errors-and-limits" aria-labelledby="errors-title" className={styles.section}>
          <h2 id="errors-title">Errors and limits</h2>
          <p>
            Every error is JSON of one shape; match on <code>error</code>, show <code>message</code> to people.
          </p>
          <CodeBlock label="403 Forbidden">{SCOPE_ERROR_EXAMPLE}</CodeBlock>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption>Status codes</caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">error</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {ERROR_CODES.map((code) => (
                  <tr key={code}>
                    <td data-label="Status">{ERROR_STATUS[code]}</td>
                    <td data-label="error">
                      <code>{code}</code>
                    </td>
                    <td data-label="When">
                      <CodeText text={ERROR_DESCRIPTIONS[code]} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className={styles.bullets}>
            <li>
              <strong>Rate limit:</strong> {rateLimit} requests per rolling minute per key (at most that many in any 60
              seconds), shared by REST and MCP. Every keyed response carries{" "}
              <code>RateLimit-Policy: &quot;per-key&quot;;q={rateLimit};w=60</code> and{" "}
              <code>RateLimit: &quot;per-key&quot;;r=&lt;remaining&gt;;t=&lt;seconds&gt;</code>; a 429 adds{" "}
              <code>Retry-After</code> in seconds. Requests without a valid key are limited per client address.{" "}
              <code>GET /api/v1</code> and the discovery documents are not counted.
            </li>
            <li>
              <strong>History and pages:</strong> <code>GET /api/v1/reports</code> returns reports newest first,{" "}
              <code>limit</code> {REPORT_LIMIT.min}–{REPORT_LIMIT.max} (default {REPORT_LIMIT.default}) at a time, and
              takes <CodeList names={filterNamesOf(OPERATIONS.list_reports)} /> to narrow them. When{" "}
              <code>next_cursor</code> is not null (also in the <code>Link</code> header), pass it as{" "}
              <code>cursor</code> with the same filters for the next page.
            </li>
            <li>
              <strong>Caching:</strong> responses carry a strong <code>ETag</code>; send it back in{" "}
              <code>If-None-Match</code> and an unchanged resource answers <code>304</code> with no body.
            </li>
            <li>
              <strong>Tracing:</strong> every response has <code>X-Request-Id</code> (yours is echoed if you send a sane
              one).
            </li>
          </ul>
        </section>

        <section id="mcp" aria-labelledby="mcp-title" className={styles.section}>
          <h2 id="mcp-title">MCP setup</h2>
          <p>
            Sundown is also an MCP server. Remote clients connect over Streamable HTTP at{" "}
            <code>{urls.mcpEndpoint}</code> with the same <code>Authorization: Bearer</code> header; the server card is
            at <a href={urls.mcpServerCard}>/.well-known/mcp/server-card.json</a>. Tools use the same scopes and rate
            limit as REST; a tool called without its scope returns an error that names the scope.
          </p>
          <CodeBlock label="Claude Code">{`claude mcp add --transport http sundown ${urls.mcpEndpoint} \\
  --header "Authorization: Bearer $SUNDOWN_API_KEY"`}</CodeBlock>
          <CodeBlock label="mcp.json (clients that take a URL and headers)">{mcpRemote}</CodeBlock>
          <CodeBlock label="mcp.json (local stdio server, run from a checkout of Sundown)">{mcpStdio}</CodeBlock>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption>Tools</caption>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Input</th>
                  <th scope="col">Same as</th>
                  <th scope="col">Scope</th>
                </tr>
              </thead>
              <tbody>
                {MCP_TOOLS.map((t) => (
                  <tr key={t.name}>
                    <td data-label="Tool">
                      <code>{t.name}</code>
                    </td>
                    <td data-label="Input">
                      {/* One chip per argument, so a long list wraps instead of widening the table. */}
                      <span className={styles.toolInput}>
                        {t.parameters.length ? t.parameters.map((p) => <code key={p}>{p}</code>) : <code>—</code>}
                      </span>
                    </td>
                    <td data-label="Same as">
                      <code>{t.rest}</code>
                    </td>
                    <td data-label="Scope">{t.scope}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <section id="webhooks" aria-labelledby="webhooks-title" className={styles.section}>
          <h2 id="webhooks-title">Webhooks</h2>
          <p>
            Sundown can also POST signed events to HTTPS endpoints that founders and leads register in Settings →
            Webhooks (operators use <code>sundown webhooks</code>). The API itself stays GET-only: keys cannot register
            endpoints. Each body is <code>{"{ id, type, timestamp, organization_id, data }"}</code>, described under{" "}
            <code>webhooks</code> in <a href={urls.openapi}>openapi.json</a>.
          </p>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption>Events</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Sent when</th>
                  <th scope="col">Carries what this scope reads</th>
                </tr>
              </thead>
              <tbody>
                {WEBHOOK_ROWS.map((row) => (
                  <tr key={row.type}>
                    <td data-label="Event">
                      <code>{row.type}</code>
                    </td>
                    <td data-label="Sent when">
                      <CodeText text={row.when} />
                    </td>
                    <td data-label="Carries what this scope reads">{row.scope}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <CodeBlock label="Verifying a delivery (TypeScript, standardwebhooks)">{`import { Webhook } from "standardwebhooks";

// body: the raw request body, as received; headers: the request's headers.
const event = new Webhook(process.env.SUNDOWN_WEBHOOK_SECRET!).verify(body, headers);
// Throws unless a webhook-signature matches and webhook-timestamp is within 5 minutes.`}</CodeBlock>
          <ul className={styles.bullets}>
            <li>
              <strong>Signing:</strong> Standard Webhooks. <code>webhook-signature</code> holds{" "}
              <code>v1,&lt;base64&gt;</code> HMAC-SHA256 signatures of{" "}
              <code>&lt;webhook-id&gt;.&lt;webhook-timestamp&gt;.&lt;body&gt;</code> with the endpoint&rsquo;s{" "}
              <code>whsec_…</code> secret; two during a secret roll&rsquo;s overlap, either one valid.
            </li>
            <li>
              <strong>Retries:</strong> a 2xx within {ATTEMPT_TIMEOUT_MS / 1000} s is delivered; anything else,
              redirects included, is tried again after {RETRY_DELAYS_MS.map(formatWait).join(", ")}, then given up. A{" "}
              <code>410</code> disables the endpoint, and so do {FAILING_DISABLES_AFTER_MS / 3_600_000} hours of failed
              attempts.
            </li>
            <li>
              <strong>At least once, in no particular order:</strong> deduplicate by <code>webhook-id</code> (the
              body&rsquo;s <code>id</code>); order by <code>timestamp</code>.
            </li>
            <li>
              The full guide, with a tested verification example without a library, is <code>docs/webhooks.md</code> in
              Sundown&rsquo;s repository.
            </li>
          </ul>
        </section>
      </div>

      <section id="reference" aria-labelledby="reference-title" className={styles.reference}>
        <div className="container">
          <h2 id="reference-title">API reference</h2>
          <p className={styles.referenceNote}>
            Generated from the server&rsquo;s own schemas (<a href="/openapi.json">openapi.json</a>).
          </p>
        </div>
        <ApiReference />
      </section>
    </div>
  );
}
