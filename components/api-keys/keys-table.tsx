import type { ApiKeyListItem } from "@/lib/data/api-keys";
import type { UsageOfKey } from "@/lib/data/key-usage";
import type { RevokeKeyState, RollKeyState } from "@/lib/settings/api-key-actions";
import { groupKeys } from "@/lib/settings/key-groups";
import { KeyActionsProvider } from "./key-actions";
import { KEY_COLUMNS, KeyRow } from "./key-row";
import { UsageLegend } from "./usage-chart";

/** Inactive keys rendered unless all are asked for: the newest, enough for recent history, cheap with hundreds. */
export const INACTIVE_SHOWN = 50;

interface Props {
  keys: ApiKeyListItem[];
  /** Each key's requests per day over the last 30 days. */
  usageOf: UsageOfKey;
  /** Render every revoked and expired key, not only the newest INACTIVE_SHOWN (the page's ?inactive=all). */
  showAllInactive?: boolean;
  revokeAction: (previous: RevokeKeyState, formData: FormData) => Promise<RevokeKeyState>;
  rollAction: (previous: RollKeyState, formData: FormData) => Promise<RollKeyState>;
}

function KeyTable({ keys, usageOf, label }: { keys: ApiKeyListItem[]; usageOf: UsageOfKey; label: string }) {
  return (
    // A table wider than a phone scrolls inside its own box, never the page.
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table aria-label={label}>
        <thead>
          <tr>
            {KEY_COLUMNS.map((column) => (
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
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} usage={usageOf(key.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The organization's keys: those the API still accepts in a table, the ones needing attention (rolled,
 * expiring soon) first; revoked and expired keys collapsed below, so the page stays short with hundreds.
 */
export function KeysTable({ keys, usageOf, revokeAction, rollAction, showAllInactive = false }: Props) {
  const { current, inactive } = groupKeys(keys);
  const shown = showAllInactive ? inactive : inactive.slice(0, INACTIVE_SHOWN);
  return (
    <section className="card" aria-labelledby="keys-title">
      <div className="section-head">
        <h2 id="keys-title" tabIndex={-1}>
          Keys
        </h2>
        {keys.length > 0 && (
          <span className="muted">
            {current.length} in use · {keys.length} in total
          </span>
        )}
      </div>
      <KeyActionsProvider rollAction={rollAction} revokeAction={revokeAction}>
        {keys.length === 0 ? (
          <div className="empty">
            <h3>No API keys yet</h3>
            <p style={{ margin: 0 }}>Create a key above to connect your first agent or script.</p>
          </div>
        ) : current.length === 0 ? (
          <p className="empty">No key is in use: every key is revoked or expired.</p>
        ) : (
          <KeyTable keys={current} usageOf={usageOf} label="Keys in use" />
        )}
        {inactive.length > 0 && (
          <details id="inactive-keys" className="inactive-keys" open={showAllInactive}>
            <summary>Revoked and expired keys ({inactive.length})</summary>
            <KeyTable keys={shown} usageOf={usageOf} label="Revoked and expired keys" />
            {shown.length < inactive.length && (
              <p className="muted">
                The {shown.length} most recent of {inactive.length}.{" "}
                <a href="?inactive=all#inactive-keys">Show all {inactive.length}</a>
              </p>
            )}
          </details>
        )}
      </KeyActionsProvider>
      {keys.length > 0 && <UsageLegend />}
    </section>
  );
}
