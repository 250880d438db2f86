"use client";

import Link from "next/link";
import type { RemoveReportState } from "@/lib/settings/report-actions";
import { useRowDialogs } from "../settings/row-dialogs";
import { SettingsTable } from "../settings/settings-table";
import { DeleteReportDialog, type ReportTarget } from "./delete-report-dialog";

export interface ReportRow {
  id: string;
  /** When, in the organization's time zone. */
  when: string;
  scope: string;
  /** Whom it is about: the organization, or the lead or member by name. */
  about: string;
  /** As the API lists it: contact details removed. */
  headline: string | null;
}

interface Props {
  rows: ReportRow[];
  removeAction: (previous: RemoveReportState, formData: FormData) => Promise<RemoveReportState>;
}

const labelOf = (row: ReportRow) => `${row.scope} report about ${row.about} of ${row.when}`;

/** One page of reports, newest first; each opens to its content, and deletes after a confirmation. */
export function ReportsTable({ rows, removeAction }: Props) {
  const { opening, open, close } = useRowDialogs<ReportTarget, never>();
  return (
    <>
      <SettingsTable label="Reports" columns={["Generated", "Scope", "About", "Headline"]} actions>
        {rows.map((row) => (
          <tr key={row.id}>
            <td style={{ whiteSpace: "nowrap" }}>{row.when}</td>
            <td>{row.scope}</td>
            <td>{row.about}</td>
            <td style={{ minWidth: "14rem" }}>{row.headline ?? <span className="muted">No headline</span>}</td>
            <td>
              <div className="row-actions">
                <Link className="button button--secondary button--small" href={`/settings/reports/${row.id}`}>
                  View<span className="visually-hidden"> the {labelOf(row)}</span>
                </Link>
                <button
                  type="button"
                  className="button button--ghost-danger"
                  aria-haspopup="dialog"
                  onClick={() => open({ id: row.id, label: labelOf(row) })}
                >
                  Delete<span className="visually-hidden"> the {labelOf(row)}</span>
                </button>
              </div>
            </td>
          </tr>
        ))}
      </SettingsTable>
      {opening && (
        <DeleteReportDialog
          key={opening.id}
          target={opening}
          action={removeAction}
          onClose={close}
          focusAfterDone="reports-title"
        />
      )}
    </>
  );
}
