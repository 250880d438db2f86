"use client";

import { useActionState, useEffect, useRef } from "react";
import type { ConfirmUploadState, PreviewUploadState, UploadPreview } from "@/lib/settings/report-actions";
import { SubmitButton } from "../settings/submit-button";

interface Props {
  previewAction: (previous: PreviewUploadState, formData: FormData) => Promise<PreviewUploadState>;
  confirmAction: (previous: ConfirmUploadState, formData: FormData) => Promise<ConfirmUploadState>;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * Import a file in two steps: the preview checks it whole, as `sundown reports import` does, and says what an import
 * would add, leave unchanged and replace, or every problem with its place; nothing is written until the import is
 * confirmed. Both are form posts, so they work without JavaScript too.
 */
export function UploadForm({ previewAction, confirmAction }: Props) {
  const [preview, previewFormAction, previewing] = useActionState(previewAction, { status: "idle" });
  const previewed = preview.status === "previewed" ? (preview as UploadPreview) : undefined;
  return (
    <section className="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Import a file</h2>
      <p className="hint" style={{ marginBottom: "1rem" }}>
        The JSON import format of <code>sundown reports import</code>, up to 1 MB (larger files: the CLI or{" "}
        <code>POST /ingest/v1/reports</code>). Reports already stored are matched by their id, else by scope, person and
        time: importing a file again changes nothing.
      </p>
      <form action={previewFormAction} className="form" aria-label="Preview an import file">
        {preview.status === "error" && (
          <p className="alert alert--error" role="alert">
            {(preview as { message: string }).message}
          </p>
        )}
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
        <SubmitButton pending={previewing} label="Preview import" busy="Checking…" />
      </form>
      {previewed && <PreviewResult key={previewed.previewId} preview={previewed} confirmAction={confirmAction} />}
    </section>
  );
}

function PreviewResult({ preview, confirmAction }: { preview: UploadPreview; confirmAction: Props["confirmAction"] }) {
  const [state, formAction, importing] = useActionState(confirmAction, { status: "idle" });
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => resultRef.current?.focus(), [state]);

  if (!preview.ok) {
    const [headline, ...lines] = preview.problems;
    return (
      <div ref={resultRef} tabIndex={-1} className="alert alert--error upload-result" role="alert">
        <p style={{ margin: 0 }}>
          <strong>{preview.fileName}</strong>: {headline}
        </p>
        <pre className="problems">{lines.join("\n")}</pre>
      </div>
    );
  }
  if (state.status === "imported") {
    const { added, unchanged, replaced } = state;
    return (
      <div ref={resultRef} tabIndex={-1} className="alert alert--success upload-result" role="status">
        Imported <strong>{preview.fileName}</strong>: {plural(added, "report")} added, {unchanged} unchanged, {replaced}{" "}
        replaced.
      </div>
    );
  }
  const changes = preview.added + preview.replaced;
  return (
    <div ref={resultRef} tabIndex={-1} className="upload-result" role="status" aria-label="Import preview">
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
      {state.status === "error" && (
        <pre className="alert alert--error problems" role="alert">
          {state.message}
        </pre>
      )}
      {changes === 0 ? (
        <p className="hint">Nothing to import: every report in the file is stored already.</p>
      ) : (
        <form action={formAction} className="form">
          <input type="hidden" name="content" value={preview.content} />
          <input type="hidden" name="replace" value={String(preview.replace)} />
          <p className="hint">Nothing has been written yet. The import is all or nothing.</p>
          <SubmitButton pending={importing} label={`Import ${plural(changes, "report")}`} busy="Importing…" />
        </form>
      )}
    </div>
  );
}
