import type { Metadata } from "next";
import Link from "next/link";
import { unstable_rethrow } from "next/navigation";
import { AccountBar } from "@/components/account-bar";
import { AuditTrail } from "@/components/api-keys/audit-trail";
import { CreateKeyForm } from "@/components/api-keys/create-key-form";
import { KeysTable } from "@/components/api-keys/keys-table";
import { UnavailableNotice } from "@/components/settings/unavailable-notice";
import { canManageKeys } from "@/lib/session/require-key-manager";
import { requireSession } from "@/lib/session/require-session";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/auth/scopes";
import { listApiKeyEvents, listApiKeys } from "@/lib/data/api-keys";
import { listKeyUsage } from "@/lib/data/key-usage";
import { isDatabaseUnavailable } from "@/lib/errors";
import { minExpiryDate } from "@/lib/schemas/key-expiry";
import { KEY_NAME_MAX } from "@/lib/schemas/key-name";
import { DEFAULT_EXPIRY_CHOICE } from "@/lib/settings/api-key-inputs";
import { createApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ApiKeysPage(props: { searchParams: SearchParams }) {
  try {
    return await KeysSettings(props);
  } catch (error) {
    // Sign-in redirects pass; a database that does not answer is said on the page instead of a bare 500 (an App
    // Router page cannot answer 503, which the API does).
    unstable_rethrow(error);
    if (!isDatabaseUnavailable(error)) throw error;
    return <UnavailableNotice heading="API keys" title="The keys cannot be shown right now" />;
  }
}

async function KeysSettings({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireSession("/settings/api-keys");

  if (!canManageKeys(user)) {
    return (
      <div className="container settings">
        <AccountBar user={user} />
        <div className="page-head">
          <h1>API keys</h1>
        </div>
        <section className="card notice" aria-labelledby="no-access-title">
          <h2 id="no-access-title">Only founders and leads manage API keys</h2>
          <p>
            You are signed in as a member of {user.organization.name}. API keys give agents and scripts read access to
            the whole organization&rsquo;s reports and roster, so only its founders and leads can create or revoke them.
          </p>
          <p style={{ marginBottom: 0 }}>
            Need a key for a tool? Ask a founder or lead of {user.organization.name}. Meanwhile, the{" "}
            <Link href="/docs">API docs</Link> describe what a key can do.
          </p>
        </section>
      </div>
    );
  }

  const [keys, events, usageOf] = await Promise.all([
    listApiKeys(user.organization.id),
    listApiKeyEvents(user.organization.id),
    listKeyUsage(user.organization.id),
  ]);
  const scopes = SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] }));

  return (
    <div className="container settings">
      <AccountBar user={user} />
      <div className="page-head">
        <h1>API keys</h1>
        <p>
          Keys let agents and scripts read {user.organization.name}&rsquo;s end-of-day reports and team roster over the
          REST API and MCP. Give each tool its own key with only the scopes it needs, roll a key to replace its secret
          without a gap, and revoke a key the moment it is no longer used: the next request with it is refused.
        </p>
      </div>
      <div className="stack">
        <CreateKeyForm
          action={createApiKeyAction}
          scopes={scopes}
          nameMax={KEY_NAME_MAX}
          minExpiry={minExpiryDate()}
          defaultExpiry={DEFAULT_EXPIRY_CHOICE}
        />
        <KeysTable
          keys={keys}
          usageOf={usageOf}
          revokeAction={revokeApiKeyAction}
          rollAction={rollApiKeyAction}
          showAllInactive={(await searchParams).inactive === "all"}
        />
        <AuditTrail events={events} />
      </div>
    </div>
  );
}
