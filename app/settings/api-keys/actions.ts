"use server";

import { createKey, revokeKey, rollKey } from "@/lib/settings/api-key-actions";

// Server actions of /settings/api-keys, each the settings kit's pipeline (lib/settings/action.ts): the session
// cookie only (an API key header is never read here), the role, the form, the change, its audit line, the pages
// revalidated. Next's built-in Origin check (and proxy.ts) refuse cross-site posts.

export const createApiKeyAction = createKey.serve;
export const revokeApiKeyAction = revokeKey.serve;
export const rollApiKeyAction = rollKey.serve;
