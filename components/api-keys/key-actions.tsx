"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { NewKey, RevokeKeyState, RollKeyState } from "@/lib/settings/api-key-actions";
import { useRowDialogs } from "../settings/row-dialogs";
import type { KeyTarget } from "./key-target";
import { NewKeySecret } from "./new-key-secret";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { RollKeyDialog } from "./roll-key-dialog";

type Opening = { kind: "roll" | "revoke"; key: KeyTarget };

const OpenDialog = createContext<(opening: Opening) => void>(() => {});

interface Props {
  rollAction: (previous: RollKeyState, formData: FormData) => Promise<RollKeyState>;
  revokeAction: (previous: RevokeKeyState, formData: FormData) => Promise<RevokeKeyState>;
  children: ReactNode;
}

/** One roll and one revoke dialog for all the keys (a key's row moves to the collapsed list when it stops). */
export function KeyActionsProvider({ rollAction, revokeAction, children }: Props) {
  const { opening, open, close, rolled, showRolled } = useRowDialogs<Opening, NewKey>();
  return (
    <OpenDialog.Provider value={open}>
      {rolled && <NewKeySecret key={rolled.id} created={rolled} verb="rolled" />}
      {children}
      {/* Mounted for one opening only, so each starts clean: no error left from an earlier attempt. */}
      {opening?.kind === "roll" && (
        <RollKeyDialog
          key={opening.key.id}
          target={opening.key}
          action={rollAction}
          onClose={close}
          onRolled={showRolled}
        />
      )}
      {opening?.kind === "revoke" && (
        <RevokeKeyDialog key={opening.key.id} target={opening.key} action={revokeAction} onClose={close} />
      )}
    </OpenDialog.Provider>
  );
}

function ActionButton({ kind, target, className }: { kind: Opening["kind"]; target: KeyTarget; className: string }) {
  const open = useContext(OpenDialog);
  return (
    <button type="button" className={className} aria-haspopup="dialog" onClick={() => open({ kind, key: target })}>
      {kind === "roll" ? "Roll" : "Revoke"}
      <span className="visually-hidden">
        {" "}
        {target.name} ({target.hint})
      </span>
    </button>
  );
}

export function RollKeyButton(target: KeyTarget) {
  return <ActionButton kind="roll" target={target} className="button button--secondary button--small" />;
}

export function RevokeKeyButton(target: KeyTarget) {
  return <ActionButton kind="revoke" target={target} className="button button--ghost-danger" />;
}
