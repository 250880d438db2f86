"use client";

import { useActionState } from "react";
import type { ImportRosterState } from "@/lib/settings/team-actions";
import { SubmitButton } from "../settings/submit-button";

interface Props {
  action: (previous: ImportRosterState, formData: FormData) => Promise<ImportRosterState>;
}

const CHANGE_WORDS = { added: "Add", updated: "Update", deactivated: "Deactivate", reactivated: "Reactivate" } as const;

/**
 * The roster from a file: the upload is checked and previewed with nothing written; "Import" then sends the same
 * text back, and only that writes. Both are one form post each, so the page works without JavaScript.
 */
export function ImportRosterForm({ action }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const preview = state.status === "preview" ? state : null;
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import from a file</h2>
      <p className="hint">
        CSV with the header <code>name,email,role,department,external,active</code>, plus <code>chat</code> and{" "}
        <code>phone</code> columns as often as needed; or JSON with the same fields. People are matched by e-mail: the
        same file again changes nothing. You see what would change before anything is written.
      </p>
      {state.status === "error" && (
        <p className="alert alert--error" role="alert">
          {state.message}
        </p>
      )}
      {state.status === "invalid" && (
        <div className="alert alert--error" role="alert">
          <p style={{ margin: 0 }}>
            The file has {state.problems.length === 1 ? "1 problem" : `${state.problems.length} problems`}; nothing was
            imported.
          </p>
          <ul>
            {state.problems.map((p, i) => (
              <li key={i}>
                {p.row}
                {p.field ? `, ${p.field}` : ""}: {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {state.status === "imported" && (
        <p className="alert alert--success" role="status">
          Imported: {state.result.added} added, {state.result.updated} updated, {state.result.unchanged} unchanged,{" "}
          {state.result.deactivated} deactivated.
        </p>
      )}
      {preview ? (
        <form action={formAction} className="form" aria-label="Confirm the import">
          <p role="status" style={{ margin: 0 }}>
            <strong>{preview.fileName || "The file"}</strong> would make {preview.result.added} added,{" "}
            {preview.result.updated} updated, {preview.result.unchanged} unchanged, {preview.result.deactivated}{" "}
            deactivated. Nothing is written until you import.
          </p>
          <ul>
            {preview.result.people
              .filter((p) => p.change !== "unchanged")
              .map((p) => (
                <li key={`${p.row}:${p.id}`}>
                  {CHANGE_WORDS[p.change as keyof typeof CHANGE_WORDS]} <strong>{p.name}</strong>{" "}
                  <span className="muted">({p.row})</span>
                </li>
              ))}
          </ul>
          <input type="hidden" name="step" value="confirm" />
          <input type="hidden" name="fileName" value={preview.fileName} />
          <input type="hidden" name="deactivateMissing" value={String(preview.deactivateMissing)} />
          <textarea name="content" defaultValue={preview.content} hidden readOnly />
          <div className="actions">
            <SubmitButton pending={pending} label="Import" busy="Importing…" />
          </div>
        </form>
      ) : (
        <form action={formAction} className="form">
          <input type="hidden" name="step" value="preview" />
          <div className="field">
            <label htmlFor="roster-file">Roster file</label>
            <input id="roster-file" type="file" name="file" accept=".csv,.json,text/csv,application/json" />
          </div>
          <div className="checkbox">
            <input id="roster-deactivate-missing" type="checkbox" name="deactivateMissing" value="true" />
            <label htmlFor="roster-deactivate-missing">
              Deactivate the people the file leaves out{" "}
              <span className="hint">They stay on the roster, inactive, and can no longer sign in.</span>
            </label>
          </div>
          <div className="actions">
            <SubmitButton pending={pending} label="Preview" busy="Checking…" />
          </div>
        </form>
      )}
    </section>
  );
}
