import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { CreateTokenForm } from "@/components/ingest-tokens/create-token-form";
import { TokensTable, type TokenRow } from "@/components/ingest-tokens/tokens-table";
import { ActivityLog } from "@/components/settings/activity-log";
import { EmptyList, ListSection } from "@/components/settings/list-section";
import { SectionHead } from "@/components/settings/section-head";
import { settingsPage } from "@/components/settings/settings-page";
import { listActivity } from "@/lib/data/activity";
import { INGEST_TOKEN_SUBJECT, listIngestTokens } from "@/lib/data/ingest-tokens";
import { KEY_NAME_MAX } from "@/lib/schemas/key-name";
import { settingsSection } from "@/lib/settings/sections";
import { createIngestTokenAction, revokeIngestTokenAction, rollIngestTokenAction } from "./actions";

export const metadata: Metadata = { title: settingsSection("ingest-tokens").label };

const VERBS = { created: "created", rolled: "rolled", revoked: "revoked" };

export default settingsPage("ingest-tokens", async ({ user, heading }) => {
  const now = new Date();
  const [tokens, trail] = await Promise.all([
    listIngestTokens(user.organization.id, now),
    listActivity(user.organization.id, [INGEST_TOKEN_SUBJECT]),
  ]);
  const rows: TokenRow[] = tokens.map((t) => ({
    id: t.id,
    name: t.name,
    hint: t.hint,
    status: t.status,
    note:
      t.status === "rolled" && t.revokedAt
        ? `works until ${formatDateTime(t.revokedAt)}`
        : t.status === "revoked" && t.revokedAt
          ? `since ${formatDateTime(t.revokedAt)}`
          : null,
    created: formatDateTime(t.createdAt),
    createdBy: t.createdBy,
    lastUsed: t.lastUsedAt ? formatDateTime(t.lastUsedAt) : null,
  }));
  const working = tokens.filter((t) => t.status !== "revoked").length;

  return (
    <>
      <SectionHead title={heading}>
        Tokens let the tools that write {user.organization.name}&rsquo;s reports (a standup bot, a scheduled job, a
        pipeline) send them in with <code>POST /ingest/v1/reports</code>, without database credentials. A token only
        sends reports: it reads nothing, and the API and MCP refuse it. See the <Link href="/docs">docs</Link> for the
        request.
      </SectionHead>
      <div className="stack">
        <CreateTokenForm action={createIngestTokenAction} nameMax={KEY_NAME_MAX} />
        <ListSection
          titleId="tokens-title"
          title="Tokens"
          tally={
            tokens.length > 0 && (
              <>
                {working} working · {tokens.length} in total
              </>
            )
          }
        >
          {tokens.length === 0 ? (
            <EmptyList title="No ingest tokens yet">Create a token above for each tool that sends reports.</EmptyList>
          ) : (
            <TokensTable tokens={rows} rollAction={rollIngestTokenAction} revokeAction={revokeIngestTokenAction} />
          )}
        </ListSection>
        <ActivityLog
          lines={trail}
          verbs={VERBS}
          summary="Tokens created, rolled and revoked, newest first"
          empty="No ingest token activity yet."
        />
      </div>
    </>
  );
});
