import type { ApiKeyListItem } from "@/lib/data/api-keys";
import { acceptsRequests } from "@/lib/data/key-status";

export interface KeyGroups {
  /** Keys the API still accepts, those that need attention first. */
  current: ApiKeyListItem[];
  /** Revoked, stopped and expired keys, newest first: the page collapses them. */
  inactive: ApiKeyListItem[];
}

// Needs attention soonest first: rolled keys by the end of their overlap, then keys expiring soon by expiry;
// every other working key keeps the list's order (newest first).
function attentionAt(key: ApiKeyListItem): number {
  if (key.status === "rolled") return key.revokedAt!.getTime();
  if (key.expiresWithinDays !== null) return key.expiresAt!.getTime();
  return Number.POSITIVE_INFINITY;
}

/** The settings page's two lists of keys, from listApiKeys' newest-first order. */
export function groupKeys(keys: ApiKeyListItem[]): KeyGroups {
  const current = keys.filter((k) => acceptsRequests(k.status));
  return {
    // Stable, so equal keys keep their order; two that need no attention compare as NaN, read as equal.
    current: current.sort((a, b) => attentionAt(a) - attentionAt(b) || 0),
    inactive: keys.filter((k) => !acceptsRequests(k.status)),
  };
}
