import type { ApiKeyListItem } from "@/lib/data/api-keys";
import type { UsageOfKey } from "@/lib/data/key-usage";
import type { RevokeKeyState, RollKeyState } from "@/lib/settings/api-key-actions";
import { groupKeys } from "@/lib/settings/key-groups";
import { EmptyList, ListSection } from "../settings/list-section";
import { SettingsTable } from "../settings/settings-table";
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
    <SettingsTable label={label} columns={KEY_COLUMNS} actions>
      {keys.map((key) => (
        <KeyRow key={key.id} apiKey={key} usage={usageOf(key.id)} />
      ))}
    </SettingsTable>
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
    <ListSection
      titleId="keys-title"
      title="Keys"
      tally={
        keys.length > 0 && (
          <>
            {current.length} in use · {keys.length} in total
          </>
        )
      }
    >
      <KeyActionsProvider rollAction={rollAction} revokeAction={revokeAction}>
        {keys.length === 0 ? (
          <EmptyList title="No API keys yet">Create a key above to connect your first agent or script.</EmptyList>
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
    </ListSection>
  );
}
