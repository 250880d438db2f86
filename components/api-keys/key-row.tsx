import type { ApiKeyListItem } from "@/lib/data/api-keys";
import type { KeyUsage } from "@/lib/data/key-usage";
import { formatDate, formatDateTime, formatTime, machineTime } from "../format";
import { TagList } from "../settings/tag-list";
import { RevokeKeyButton, RollKeyButton } from "./key-actions";
import { UsageChart } from "./usage-chart";

const STATUS_LABELS = { active: "Active", rolled: "Rolled", revoked: "Revoked", expired: "Expired" } as const;

/** The keys tables' columns, in the order KeyRow renders its cells: a new column is a header here and a cell there. */
export const KEY_COLUMNS = ["Name", "Scopes", "Key", "Created", "Expires", "Status", "Use (30 days)"];

/** Where a row can be linked to, e.g. from the key it replaced. */
const keyAnchor = (id: string) => `key-${id}`;

function When({
  date,
  fallback,
  dateOnly,
  inline,
}: {
  date: Date | null;
  fallback: string;
  dateOnly?: boolean;
  /** Date and time on one line, inside a line of text. */
  inline?: boolean;
}) {
  if (!date) return <span className="muted">{fallback}</span>;
  if (inline) return <time dateTime={machineTime(date)}>{formatDateTime(date)}</time>;
  // Date over time, so the columns fit a laptop screen without scrolling.
  return (
    <time dateTime={machineTime(date)}>
      {formatDate(date)}
      {!dateOnly && <span className="time-line">{formatTime(date)}</span>}
    </time>
  );
}

function KeyState({ apiKey }: { apiKey: ApiKeyListItem }) {
  const { status, rolledTo, revokedAt, expiresWithinDays } = apiKey;
  return (
    <div className="key-state">
      <span className={`status status--${status}`}>{STATUS_LABELS[status]}</span>
      {status === "rolled" && revokedAt && (
        <span className="status-note">
          stops at <time dateTime={machineTime(revokedAt)}>{formatDateTime(revokedAt)}</time>
        </span>
      )}
      {rolledTo && (
        <span className="status-note">
          replaced by{" "}
          <a className="mono" href={`#${keyAnchor(rolledTo.id)}`}>
            {rolledTo.hint}
          </a>
        </span>
      )}
      {expiresWithinDays !== null && (
        <span className="badge badge--warning">
          {expiresWithinDays <= 1 ? "Expires within a day" : `Expires in ${expiresWithinDays} days`}
        </span>
      )}
    </div>
  );
}

/** One key: its facts, its state, and what can still be done with it (roll an active key, revoke a working one). */
export function KeyRow({ apiKey, usage }: { apiKey: ApiKeyListItem; usage: KeyUsage }) {
  const { id, name, hint, status } = apiKey;
  return (
    <tr id={keyAnchor(id)}>
      <th scope="row" style={{ fontWeight: 600, minWidth: "9rem", overflowWrap: "anywhere" }}>
        {name}
      </th>
      <td>
        <TagList label="Scopes" tags={apiKey.scopes} />
      </td>
      <td className="mono nowrap">{apiKey.hint}</td>
      <td className="nowrap">
        <When date={apiKey.createdAt} fallback="" />
        {/* Who, under when: one column fewer, so the table fits a laptop screen with the state and actions. */}
        <span className="time-line">by {apiKey.createdBy ?? "unknown"}</span>
      </td>
      <td className="nowrap">
        <When date={apiKey.expiresAt} fallback="Never" dateOnly />
      </td>
      <td>
        <KeyState apiKey={apiKey} />
      </td>
      <td>
        <UsageChart usage={usage} />
        {/* Last use beside the traffic it ends: one column fewer, so the table fits a laptop screen. */}
        <span className="time-line">
          {apiKey.lastUsedAt ? (
            <>
              last used <When date={apiKey.lastUsedAt} fallback="" inline />
            </>
          ) : (
            "never used"
          )}
        </span>
      </td>
      <td className="nowrap">
        {status === "active" || status === "rolled" ? (
          <div className="row-actions">
            {status === "active" && <RollKeyButton id={id} name={name} hint={hint} />}
            {/* For a rolled key, revoking ends its overlap now. */}
            <RevokeKeyButton id={id} name={name} hint={hint} />
          </div>
        ) : (
          <span className="muted" aria-hidden="true">
            —
          </span>
        )}
      </td>
    </tr>
  );
}
