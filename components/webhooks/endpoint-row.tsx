import Link from "next/link";
import type { WebhookEndpointItem } from "@/lib/data/webhook-endpoints";
import { formatDate, formatDateTime, formatTime, machineTime } from "../format";
import { TagList } from "../settings/tag-list";
import { DISABLED_STATUS } from "./disabled-reasons";
import { DeleteEndpointButton, EnableToggle, PingButton, RollSecretButton } from "./endpoint-actions";

/** The endpoints table's columns, in the order EndpointRow renders its cells. */
export const ENDPOINT_COLUMNS = ["URL", "Events", "Status", "Created"];

/** Each endpoint's deliveries page. */
const deliveriesPath = (endpointId: string) => `/settings/webhooks/${endpointId}`;

function Time({ date }: { date: Date }) {
  return <time dateTime={machineTime(date)}>{formatDateTime(date)}</time>;
}

/** On, or off and why; whether it is failing now, and while a roll's overlap lasts, when the old secret stops. */
function EndpointState({ endpoint }: { endpoint: WebhookEndpointItem }) {
  const { enabled, disabledAt, disabledReason, failingSince, previousSecretExpiresAt } = endpoint;
  return (
    <div className="key-state">
      {enabled ? (
        <span className="status status--active">Enabled</span>
      ) : (
        // The reason is the status: a long one wraps rather than widen the table.
        <span className="status status--revoked" style={{ whiteSpace: "normal" }}>
          {DISABLED_STATUS[disabledReason ?? "manual"]}
        </span>
      )}
      {!enabled && disabledAt && (
        <span className="status-note">
          since <Time date={disabledAt} />
        </span>
      )}
      {failingSince && (
        <span className="badge badge--warning" style={{ whiteSpace: "normal" }}>
          Failing since <Time date={failingSince} />
        </span>
      )}
      {previousSecretExpiresAt && (
        <span className="status-note">
          Previous secret signs until <Time date={previousSecretExpiresAt} />
        </span>
      )}
    </div>
  );
}

/** One endpoint: where it sends, what, its health, and everything that can be done with it. */
export function EndpointRow({ endpoint }: { endpoint: WebhookEndpointItem }) {
  const target = { id: endpoint.id, url: endpoint.url };
  return (
    <tr id={`endpoint-${endpoint.id}`}>
      <th scope="row" className="mono" style={{ fontWeight: 600, minWidth: "12rem", overflowWrap: "anywhere" }}>
        {endpoint.url}
      </th>
      <td>
        <TagList label="Events" tags={endpoint.events} />
      </td>
      <td style={{ minWidth: "11rem" }}>
        <EndpointState endpoint={endpoint} />
      </td>
      <td className="nowrap">
        {/* Date over time over who, as the keys table does, so the columns fit a laptop screen. */}
        <time dateTime={machineTime(endpoint.createdAt)}>
          {formatDate(endpoint.createdAt)}
          <span className="time-line">{formatTime(endpoint.createdAt)}</span>
        </time>
        <span className="time-line">by {endpoint.createdBy ?? "unknown"}</span>
      </td>
      <td className="nowrap">
        <div className="row-actions">
          <Link className="button button--secondary button--small" href={deliveriesPath(endpoint.id)}>
            Deliveries<span className="visually-hidden"> to {endpoint.url}</span>
          </Link>
          <PingButton target={target} deliveriesHref={deliveriesPath(endpoint.id)} />
          <EnableToggle target={target} enabled={endpoint.enabled} />
          <RollSecretButton {...target} />
          <DeleteEndpointButton {...target} />
        </div>
      </td>
    </tr>
  );
}
