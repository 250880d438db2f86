import type { Metadata } from "next";
import { headers } from "next/headers";
import { AuditTrail } from "@/components/api-keys/audit-trail";
import { CreateKeyForm } from "@/components/api-keys/create-key-form";
import { KeysTable } from "@/components/api-keys/keys-table";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/auth/scopes";
import { listActivity } from "@/lib/data/activity";
import { API_KEY_SUBJECT, listApiKeys } from "@/lib/data/api-keys";
import { listKeyUsage } from "@/lib/data/key-usage";
import { baseUrlFromHeaders } from "@/lib/discovery/request-base-url";
import { minExpiryDate } from "@/lib/schemas/key-expiry";
import { KEY_NAME_MAX } from "@/lib/schemas/key-name";
import { DEFAULT_EXPIRY_CHOICE } from "@/lib/settings/api-key-inputs";
import { settingsSection } from "@/lib/settings/sections";
import { createApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "./actions";

export const metadata: Metadata = { title: settingsSection("api-keys").label };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default settingsPage<{ searchParams: SearchParams }>("api-keys", async ({ user, heading, searchParams }) => {
  const [keys, lines, usageOf] = await Promise.all([
    listApiKeys(user.organization.id),
    listActivity(user.organization.id, [API_KEY_SUBJECT]),
    listKeyUsage(user.organization.id),
  ]);
  const scopes = SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] }));

  return (
    <>
      <SectionHead title={heading}>
        Keys let agents and scripts read {user.organization.name}&rsquo;s end-of-day reports and team roster over the
        REST API and MCP. Give each tool its own key with only the scopes it needs, roll a key to replace its secret
        without a gap, and revoke a key the moment it is no longer used: the next request with it is refused.
      </SectionHead>
      <div className="stack">
        <CreateKeyForm
          action={createApiKeyAction}
          scopes={scopes}
          nameMax={KEY_NAME_MAX}
          minExpiry={minExpiryDate()}
          defaultExpiry={DEFAULT_EXPIRY_CHOICE}
          base={baseUrlFromHeaders(await headers())}
        />
        <KeysTable
          keys={keys}
          usageOf={usageOf}
          revokeAction={revokeApiKeyAction}
          rollAction={rollApiKeyAction}
          showAllInactive={(await searchParams).inactive === "all"}
        />
        <AuditTrail lines={lines} />
      </div>
    </>
  );
});
