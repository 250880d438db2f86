import type { ReactNode } from "react";

interface Props {
  /** The table's accessible name, and its scrolling box's. */
  label: string;
  /** The headers of the rows' cells, in the order the rows render them. */
  columns: string[];
  /** Whether the rows end in a cell of buttons: its header is for screen readers only. */
  actions: boolean;
  /** The rows. */
  children: ReactNode;
}

/** A settings page's list of things (keys, endpoints, delivery attempts), a row each. */
export function SettingsTable({ label, columns, actions, children }: Props) {
  return (
    // A table wider than a phone scrolls inside its own box, never the page.
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
