import type { WebhookEndpointItem } from "@/lib/webhooks/endpoints";
import { EndpointActionsProvider, type EndpointActions } from "./endpoint-actions";
import { ENDPOINT_COLUMNS, EndpointRow } from "./endpoint-row";

/** The organization's endpoints, newest first, each with its state and actions. */
export function EndpointsTable({ endpoints, ...actions }: EndpointActions & { endpoints: WebhookEndpointItem[] }) {
  const enabled = endpoints.filter((e) => e.enabled).length;
  return (
    <section className="card" aria-labelledby="endpoints-title">
      <div className="section-head">
        <h2 id="endpoints-title" tabIndex={-1}>
          Endpoints
        </h2>
        {endpoints.length > 0 && (
          <span className="muted">
            {enabled} enabled · {endpoints.length} in total
          </span>
        )}
      </div>
      <EndpointActionsProvider {...actions}>
        {endpoints.length === 0 ? (
          <div className="empty">
            <h3>No webhook endpoints yet</h3>
            <p style={{ margin: 0 }}>Add an endpoint above to be told the moment a report is published.</p>
          </div>
        ) : (
          // A table wider than a phone scrolls inside its own box, never the page.
          <div className="table-wrap" role="region" aria-label="Webhook endpoints" tabIndex={0}>
            <table aria-label="Webhook endpoints">
              <thead>
                <tr>
                  {ENDPOINT_COLUMNS.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((endpoint) => (
                  <EndpointRow key={endpoint.id} endpoint={endpoint} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </EndpointActionsProvider>
    </section>
  );
}
