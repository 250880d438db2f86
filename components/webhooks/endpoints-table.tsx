import type { WebhookEndpointItem } from "@/lib/data/webhook-endpoints";
import { EmptyList, ListSection } from "../settings/list-section";
import { SettingsTable } from "../settings/settings-table";
import { EndpointActionsProvider, type EndpointActions } from "./endpoint-actions";
import { ENDPOINT_COLUMNS, EndpointRow } from "./endpoint-row";

/** The organization's endpoints, newest first, each with its state and actions. */
export function EndpointsTable({ endpoints, ...actions }: EndpointActions & { endpoints: WebhookEndpointItem[] }) {
  const enabled = endpoints.filter((e) => e.enabled).length;
  return (
    <ListSection
      titleId="endpoints-title"
      title="Endpoints"
      tally={
        endpoints.length > 0 && (
          <>
            {enabled} enabled · {endpoints.length} in total
          </>
        )
      }
    >
      <EndpointActionsProvider {...actions}>
        {endpoints.length === 0 ? (
          <EmptyList title="No webhook endpoints yet">
            Add an endpoint above to be told the moment a report is published.
          </EmptyList>
        ) : (
          <SettingsTable label="Webhook endpoints" columns={ENDPOINT_COLUMNS} actions>
            {endpoints.map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} />
            ))}
          </SettingsTable>
        )}
      </EndpointActionsProvider>
    </ListSection>
  );
}
