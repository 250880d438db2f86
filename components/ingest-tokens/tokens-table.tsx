"use client";

import type { NewIngestToken, RevokeIngestTokenState, RollIngestTokenState } from "@/lib/settings/ingest-token-actions";
import { ConfirmDialog } from "../settings/confirm-dialog";
import { OverlapField } from "../settings/overlap-field";
import { useRowDialogs } from "../settings/row-dialogs";
import { SettingsTable } from "../settings/settings-table";
import { NewTokenSecret } from "./new-token-secret";

/** A token as the table shows it: dates already written on the server, so nothing shifts on hydration. */
export interface TokenRow {
  id: string;
  name: string;
  hint: string;
  status: "active" | "rolled" | "revoked";
  /** What the state column says beside the status: until when a rolled token works, when it was revoked. */
  note: string | null;
  created: string;
  createdBy: string;
  lastUsed: string | null;
}

interface Props {
  tokens: TokenRow[];
  rollAction: (previous: RollIngestTokenState, formData: FormData) => Promise<RollIngestTokenState>;
  revokeAction: (previous: RevokeIngestTokenState, formData: FormData) => Promise<RevokeIngestTokenState>;
}

type Opening = { kind: "roll" | "revoke"; token: TokenRow };

const STATUS_LABELS = { active: "Active", rolled: "Rolled", revoked: "Revoked" } as const;

/** The organization's tokens, newest first; an active token can be rolled, a working one revoked. */
export function TokensTable({ tokens, rollAction, revokeAction }: Props) {
  const { opening, open, close, rolled, showRolled } = useRowDialogs<Opening, NewIngestToken>();
  return (
    <>
      {rolled && <NewTokenSecret key={rolled.id} token={rolled} verb="rolled" />}
      <SettingsTable label="Ingest tokens" columns={["Name", "Token", "Created", "Last used", "Status"]} actions>
        {tokens.map((token) => (
          <tr key={token.id}>
            <th scope="row" style={{ fontWeight: 600, minWidth: "9rem", overflowWrap: "anywhere" }}>
              {token.name}
            </th>
            <td className="mono nowrap">{token.hint}</td>
            <td>
              {token.created}
              <span className="time-line muted">by {token.createdBy}</span>
            </td>
            <td>{token.lastUsed ?? <span className="muted">Never</span>}</td>
            <td>
              <span className={`status status--${token.status}`}>{STATUS_LABELS[token.status]}</span>
              {token.note && <span className="status-note">{token.note}</span>}
            </td>
            <td>
              <div className="row-actions">
                {token.status === "active" && (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-haspopup="dialog"
                    onClick={() => open({ kind: "roll", token })}
                  >
                    Roll<span className="visually-hidden"> {`${token.name} (${token.hint})`}</span>
                  </button>
                )}
                {token.status !== "revoked" && (
                  <button
                    type="button"
                    className="button button--ghost-danger"
                    aria-haspopup="dialog"
                    onClick={() => open({ kind: "revoke", token })}
                  >
                    Revoke<span className="visually-hidden"> {`${token.name} (${token.hint})`}</span>
                  </button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </SettingsTable>
      {opening?.kind === "roll" && (
        <ConfirmDialog
          key={opening.token.id}
          idField={{ name: "tokenId", value: opening.token.id }}
          title={<>Roll &ldquo;{opening.token.name}&rdquo;?</>}
          description={
            <>
              A new token with the same name replaces{" "}
              <span className="mono" style={{ whiteSpace: "nowrap" }}>
                {opening.token.hint}
              </span>
              ; it is shown once. Both work until the overlap ends, so the tool can switch without a gap.
            </>
          }
          action={rollAction}
          submit={{ label: "Roll token", busy: "Rolling…", className: "button button--primary" }}
          onClose={(done) => (done ? showRolled(done.token) : close())}
        >
          <OverlapField label="The old token keeps working for" noOverlap="No overlap: the old token stops now" />
        </ConfirmDialog>
      )}
      {opening?.kind === "revoke" && (
        <ConfirmDialog
          key={opening.token.id}
          idField={{ name: "tokenId", value: opening.token.id }}
          title={<>Revoke &ldquo;{opening.token.name}&rdquo;?</>}
          description={
            <>
              Anything sending reports with{" "}
              <span className="mono" style={{ whiteSpace: "nowrap" }}>
                {opening.token.hint}
              </span>{" "}
              is refused from its next request on. This cannot be undone; the token stays listed as revoked.
            </>
          }
          action={revokeAction}
          submit={{ label: "Revoke token", busy: "Revoking…", className: "button button--danger" }}
          onClose={close}
          focusAfterDone="tokens-title"
        />
      )}
    </>
  );
}
