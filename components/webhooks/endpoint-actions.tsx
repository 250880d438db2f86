"use client";

import Link from "next/link";
import { createContext, useActionState, useContext, type ReactNode } from "react";
import type { DeleteEndpointState, PingState, RollSecretState, SetEnabledState } from "@/lib/settings/webhook-actions";
import { useRowDialogs } from "../settings/row-dialogs";
import { DeleteEndpointDialog } from "./delete-endpoint-dialog";
import type { EndpointTarget } from "./endpoint-target";
import { RolledSecretNotice } from "./rolled-secret-notice";
import { RollSecretDialog, type RolledSecret } from "./roll-secret-dialog";

export interface EndpointActions {
  rollAction: (previous: RollSecretState, formData: FormData) => Promise<RollSecretState>;
  deleteAction: (previous: DeleteEndpointState, formData: FormData) => Promise<DeleteEndpointState>;
  setEnabledAction: (previous: SetEnabledState, formData: FormData) => Promise<SetEnabledState>;
  pingAction: (previous: PingState, formData: FormData) => Promise<PingState>;
}

type Opening = { kind: "roll" | "delete"; endpoint: EndpointTarget };

const Actions = createContext<(EndpointActions & { open: (opening: Opening) => void }) | null>(null);

function useEndpointActions() {
  const actions = useContext(Actions);
  if (!actions) throw new Error("endpoint buttons are rendered inside EndpointActionsProvider");
  return actions;
}

/** One roll and one delete dialog for all the endpoints (a deleted endpoint's row goes). */
export function EndpointActionsProvider({ children, ...actions }: EndpointActions & { children: ReactNode }) {
  const { opening, open, close, rolled, showRolled } = useRowDialogs<Opening, RolledSecret>();
  return (
    <Actions.Provider value={{ ...actions, open }}>
      {rolled && <RolledSecretNotice key={rolled.secret} rolled={rolled} />}
      {children}
      {/* Mounted for one opening only, so each starts clean: no error left from an earlier attempt. */}
      {opening?.kind === "roll" && (
        <RollSecretDialog
          key={opening.endpoint.id}
          target={opening.endpoint}
          action={actions.rollAction}
          onClose={close}
          onRolled={showRolled}
        />
      )}
      {opening?.kind === "delete" && (
        <DeleteEndpointDialog
          key={opening.endpoint.id}
          target={opening.endpoint}
          action={actions.deleteAction}
          onClose={close}
        />
      )}
    </Actions.Provider>
  );
}

// In the row's stacked actions, a form's button is as wide as the buttons beside it (grid items stretch).
const STACKED = { display: "grid" } as const;

/** The endpoint's URL after a button's visible word, so each button has a name of its own in the table. */
const Which = ({ url }: { url: string }) => <span className="visually-hidden"> {url}</span>;

function DialogButton({ kind, target }: { kind: Opening["kind"]; target: EndpointTarget }) {
  const { open } = useEndpointActions();
  return (
    <button
      type="button"
      className={kind === "roll" ? "button button--secondary button--small" : "button button--ghost-danger"}
      aria-haspopup="dialog"
      onClick={() => open({ kind, endpoint: target })}
    >
      {kind === "roll" ? "Roll secret" : "Delete"}
      <Which url={target.url} />
    </button>
  );
}

export const RollSecretButton = (target: EndpointTarget) => <DialogButton kind="roll" target={target} />;

export const DeleteEndpointButton = (target: EndpointTarget) => <DialogButton kind="delete" target={target} />;

/** Turns the endpoint off (what waits for it is given up) or on again; the row's status shows the outcome. */
export function EnableToggle({ target, enabled }: { target: EndpointTarget; enabled: boolean }) {
  const { setEnabledAction } = useEndpointActions();
  const [state, formAction, pending] = useActionState(setEnabledAction, { status: "idle" });
  return (
    <form action={formAction} style={STACKED}>
      <input type="hidden" name="endpointId" value={target.id} />
      <input type="hidden" name="enabled" value={String(!enabled)} />
      <button type="submit" className="button button--secondary button--small" disabled={pending}>
        {enabled ? "Disable" : "Enable"}
        <Which url={target.url} />
      </button>
      {state.status === "error" && (
        <p className="field-error" role="alert">
          {state.message}
        </p>
      )}
    </form>
  );
}

/** Queues a test delivery, sent at once; its attempt shows on the endpoint's deliveries page. */
export function PingButton({ target, deliveriesHref }: { target: EndpointTarget; deliveriesHref: string }) {
  const { pingAction } = useEndpointActions();
  const [state, formAction, pending] = useActionState(pingAction, { status: "idle" });
  return (
    <form action={formAction} style={STACKED}>
      <input type="hidden" name="endpointId" value={target.id} />
      <button type="submit" className="button button--secondary button--small" disabled={pending}>
        {pending ? "Sending…" : "Send ping"}
        <Which url={target.url} />
      </button>
      <p role="status" className="hint" style={{ maxWidth: "10rem", whiteSpace: "normal" }}>
        {state.status === "queued" && (
          <>
            Ping queued. <Link href={deliveriesHref}>See its attempt</Link>
          </>
        )}
        {state.status === "error" && <span className="field-error">{state.message}</span>}
      </p>
    </form>
  );
}
