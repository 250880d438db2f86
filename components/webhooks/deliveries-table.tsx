import type { WebhookAttemptItem } from "@/lib/data/webhook-deliveries";
import type { RedeliverState } from "@/lib/settings/webhook-actions";
import { formatDate, formatDateTime, formatTime, machineTime } from "../format";
import { EmptyList } from "../settings/list-section";
import { SettingsTable } from "../settings/settings-table";
import { RedeliverButton } from "./redeliver-button";

// The receiver's answer shares the error's column: one more column would push Redeliver off a laptop's screen.
const COLUMNS = ["Time", "Event", "Attempt", "HTTP status", "Duration", "Delivery", "Error and answer"];

/** Characters of the answer shown before "more"; all of what is stored (1,024 bytes at most) is one click away. */
const ANSWER_PREVIEW = 80;

/**
 * The answer as text a person can read: control characters (a binary body's, once stored) shown as \xNN rather
 * than drawn invisibly or as layout; React escapes the rest.
 */
function readableAnswer(body: string): string {
  return Array.from(body, (c) => {
    const code = c.charCodeAt(0);
    const control = (code < 0x20 && c !== "\n" && c !== "\t") || code === 0x7f;
    return control ? `\\x${code.toString(16).padStart(2, "0")}` : c;
  }).join("");
}

function Answer({ body }: { body: string }) {
  const text = readableAnswer(body);
  if (text.length <= ANSWER_PREVIEW) return <code>{text}</code>;
  return (
    <details>
      <summary>
        <code>{text.slice(0, ANSWER_PREVIEW)}…</code>
      </summary>
      <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{text}</pre>
    </details>
  );
}

// The delivery's state now (not this attempt's): whether anything is still to come for it.
const STATES = {
  delivered: { label: "Delivered", className: "status--active" },
  pending: { label: "Retrying", className: "status--expired" },
  failed: { label: "Given up", className: "status--revoked" },
} as const;

interface Props {
  attempts: WebhookAttemptItem[];
  /** At most this many are listed (the newest). */
  limit: number;
  /** Null while the endpoint is disabled: a redelivery to it would be refused. */
  redeliverAction: ((previous: RedeliverState, formData: FormData) => Promise<RedeliverState>) | null;
}

function AttemptRow({ attempt, redeliverAction }: { attempt: WebhookAttemptItem } & Pick<Props, "redeliverAction">) {
  const state = STATES[attempt.state];
  return (
    <tr>
      <td className="nowrap">
        <time dateTime={machineTime(attempt.attemptedAt)}>
          {formatDate(attempt.attemptedAt)}
          <span className="time-line">{formatTime(attempt.attemptedAt)}</span>
        </time>
      </td>
      <td className="mono nowrap">{attempt.type}</td>
      <td>{attempt.attempt}</td>
      <td className="mono">{attempt.statusCode ?? <span className="muted">none</span>}</td>
      <td className="nowrap">{attempt.durationMs.toLocaleString("en-GB")} ms</td>
      <td>
        <div className="key-state">
          <span className={`status ${state.className}`}>{state.label}</span>
          {attempt.nextAttemptAt && (
            <span className="status-note">
              next at <time dateTime={machineTime(attempt.nextAttemptAt)}>{formatDateTime(attempt.nextAttemptAt)}</time>
            </span>
          )}
        </div>
      </td>
      <td style={{ minWidth: "12rem", overflowWrap: "anywhere" }}>
        {attempt.error ?? <span className="muted">—</span>}
        {attempt.responseBody && (
          <div className="status-note">
            answered <Answer body={attempt.responseBody} />
          </div>
        )}
      </td>
      {redeliverAction && (
        <td className="nowrap">
          <RedeliverButton
            deliveryId={attempt.deliveryId}
            label={`${attempt.type}, attempt ${attempt.attempt} at ${formatDateTime(attempt.attemptedAt)}`}
            action={redeliverAction}
          />
        </td>
      )}
    </tr>
  );
}

/** An endpoint's latest attempts, newest first, one line each; every line can send its delivery again. */
export function DeliveriesTable({ attempts, limit, redeliverAction }: Props) {
  if (attempts.length === 0) {
    return (
      <EmptyList title="No attempts yet">
        Send a ping from the webhooks page: its attempt shows here within seconds (reload to see it).
      </EmptyList>
    );
  }
  return (
    <>
      <SettingsTable label="Delivery attempts" columns={COLUMNS} actions={redeliverAction !== null}>
        {attempts.map((attempt) => (
          <AttemptRow key={attempt.id} attempt={attempt} redeliverAction={redeliverAction} />
        ))}
      </SettingsTable>
      {attempts.length === limit && <p className="muted">The {limit} most recent attempts.</p>}
    </>
  );
}
