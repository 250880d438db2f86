"use client";

import { useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import type { UploadImported, UploadPreview, UploadState } from "@/lib/settings/report-actions";
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE } from "@/lib/settings/upload-limit";
import { SubmitButton } from "../settings/submit-button";

interface Props {
  action: (previous: UploadState, formData: FormData) => Promise<UploadState>;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * Import a file in two steps: the preview checks it whole, as `sundown reports import` does, and says what an import
 * would add, leave unchanged and replace, or every problem with its place; nothing is written until the import is
 * confirmed. Both steps post to one action (the button's `intent`), whose one state the page shows, so they work
 * without JavaScript too.
 */
export function UploadForm({ action }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const [tooLarge, setTooLarge] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  // Refused here, not posted: a body over the server actions' limit would be refused before the action could say so.
  const checkSize = (event: FormEvent<HTMLFormElement>) => {
    const file = new FormData(event.currentTarget).get("file");
    const over = file instanceof File && file.size > UPLOAD_MAX_BYTES;
    setTooLarge(over);
    if (over) event.preventDefault();
  };
  // Each answer takes the focus, so a keyboard or screen reader user lands on what the step said.
  useEffect(() => {
    if (state.status !== "idle") resultRef.current?.focus();
  }, [state]);
  return (
    <section className="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Import a file</h2>
      <p className="hint" style={{ marginBottom: "1rem" }}>
        The JSON import format of <code>sundown reports import</code>, up to 400 kB (larger files: the CLI or{" "}
        <code>POST /ingest/v1/reports</code>). Reports already stored are matched by their id, else by scope, person and
        time: importing a file again changes nothing.
      </p>
      <form action={formAction} onSubmit={checkSize} className="form" aria-label="Preview an import file">
        {tooLarge && (
          <p className="alert alert--error" role="alert">
            {UPLOAD_TOO_LARGE}
          </p>
        )}
        <input type="hidden" name="intent" value="preview" />
        <div className="field">
          <label htmlFor="upload-file">Import file</label>
          <input id="upload-file" name="file" type="file" accept=".json,application/json" required />
        </div>
        <div className="checkbox">
          <input id="upload-replace" name="replace" type="checkbox" aria-describedby="upload-replace-hint" />
          <label htmlFor="upload-replace">
            Replace stored reports that differ
            <span id="upload-replace-hint" className="hint">
              Without it, a report stored with other content is refused and named; with it, the stored report takes the
              file&rsquo;s content, keeps its id, and endpoints are told (<code>report.updated</code>).
            </span>
          </label>
        </div>
        <SubmitButton pending={pending} label="Preview import" busy="Working…" />
      </form>
      <div ref={resultRef} tabIndex={-1} className="upload-outcome">
        {state.status === "error" && (
          <pre className="alert alert--error problems" role="alert">
            {(state as { message: string }).message}
          </pre>
        )}
        {state.status === "imported" && <Imported imported={state as UploadImported} />}
        {state.status === "previewed" && (
          <PreviewResult preview={state as UploadPreview} formAction={formAction} pending={pending} />
        )}
      </div>
    </section>
  );
}

function Imported({ imported }: { imported: UploadImported }) {
  const { fileName, added, unchanged, replaced } = imported;
  return (
    <p className="alert alert--success upload-result" role="status">
      Imported <strong>{fileName}</strong>: {plural(added, "report")} added, {unchanged} unchanged, {replaced} replaced.
    </p>
  );
}

function PreviewResult({
  preview,
  formAction,
  pending,
}: {
  preview: UploadPreview;
  formAction: (formData: FormData) => void;
  pending: boolean;
}) {
  if (!preview.ok) {
    const [headline, ...lines] = preview.problems;
    return (
      <div className="alert alert--error upload-result" role="alert">
        <p style={{ margin: 0 }}>
          <strong>{preview.fileName}</strong>: {headline}
        </p>
        <pre className="problems">{lines.join("\n")}</pre>
      </div>
    );
  }
  const changes = preview.added + preview.replaced;
  return (
    <div className="upload-result" role="status" aria-label="Import preview">
      <h3 style={{ margin: "0 0 0.5rem" }}>Preview of {preview.fileName}</h3>
      <ul className="preview-counts">
        <li>
          <strong>{preview.added}</strong> would be added
        </li>
        <li>
          <strong>{preview.unchanged}</strong> unchanged (stored already)
        </li>
        <li>
          <strong>{preview.replaced}</strong> would be replaced
        </li>
      </ul>
      {changes === 0 ? (
        <p className="hint">Nothing to import: every report in the file is stored already.</p>
      ) : (
        <form action={formAction} className="form" aria-label="Confirm the import">
          <input type="hidden" name="intent" value="import" />
          <input type="hidden" name="content" value={preview.content} />
          <input type="hidden" name="replace" value={String(preview.replace)} />
          <input type="hidden" name="fileName" value={preview.fileName} />
          <p className="hint">Nothing has been written yet. The import is all or nothing.</p>
          <SubmitButton pending={pending} label={`Import ${plural(changes, "report")}`} busy="Importing…" />
        </form>
      )}
    </div>
  );
}
