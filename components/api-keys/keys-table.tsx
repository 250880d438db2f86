import type { ApiKeyListItem } from "@/lib/data/api-keys";
import type { UsageOfKey } from "@/lib/data/key-usage";
import type { RevokeKeyState } from "@/lib/settings/api-key-actions";
import { formatDate, formatTime } from "../format";
import { RevokeKeyButton } from "./revoke-key-button";
import { UsageChart, UsageLegend } from "./usage-chart";

interface Props {
  keys: ApiKeyListItem[];
  usageOf: UsageOfKey;
  revokeAction: (previous: RevokeKeyState, formData: FormData) => Promise<RevokeKeyState>;
}

const STATUS_LABELS = { active: "Active", revoked: "Revoked", expired: "Expired" } as const;

function When({ date, fallback, dateOnly }: { date: Date | null; fallback: string; dateOnly?: boolean }) {
  if (!date) return <span className="muted">{fallback}</span>;
  // Date over time, so the columns fit a laptop screen without scrolling.
  return (
    <time dateTime={date.toISOString()}>
      {formatDate(date)}
      {!dateOnly && <span className="time-line">{formatTime(date)}</span>}
    </time>
  );
}

export function KeysTable({ keys, usageOf, revokeAction }: Props) {
  const active = keys.filter((k) => k.status === "active").length;
  return (
    <section className="card" aria-labelledby="keys-title">
      <div className="section-head">
        <h2 id="keys-title" tabIndex={-1}>
          Keys
        </h2>
        {keys.length > 0 && (
          <span className="muted">
            {active} active · {keys.length} in total
          </span>
        )}
      </div>
      {keys.length === 0 ? (
        <div className="empty">
          <h3>No API keys yet</h3>
          <p style={{ margin: 0 }}>Create a key above to connect your first agent or script.</p>
        </div>
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="keys-title" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Key</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">Requests (30 days)</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row" style={{ fontWeight: 600, minWidth: "9rem", overflowWrap: "anywhere" }}>
                    {key.name}
                  </th>
                  <td>
                    <ul className="scope-list" aria-label="Scopes">
                      {key.scopes.map((s) => (
                        <li key={s} className="tag">
                          {s}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="mono nowrap">{key.hint}</td>
                  <td>{key.createdBy ?? <span className="muted">Unknown</span>}</td>
                  <td className="nowrap">
                    <When date={key.createdAt} fallback="" />
                  </td>
                  <td className="nowrap">
                    <When date={key.lastUsedAt} fallback="Never" />
                  </td>
                  <td className="nowrap">
                    <When date={key.expiresAt} fallback="Never" dateOnly />
                  </td>
                  <td>
                    <span className={`status status--${key.status}`}>{STATUS_LABELS[key.status]}</span>
                  </td>
                  <td>
                    <UsageChart usage={usageOf(key.id)} />
                  </td>
                  <td className="nowrap">
                    <RevokeKeyButton
                      keyId={key.id}
                      name={key.name}
                      active={key.status === "active"}
                      action={revokeAction}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {keys.length > 0 && <UsageLegend />}
    </section>
  );
}
