import Link from "next/link";
import type { ReportListFilters } from "@/lib/settings/report-inputs";

interface Props {
  filters: ReportListFilters;
  people: { id: string; name: string }[];
  timeZone: string;
}

const SCOPES = [
  { value: "org", label: "Organization" },
  { value: "lead", label: "Lead" },
  { value: "member", label: "Member" },
];

/**
 * The list's filters: a plain GET form, so the filtered list has an address of its own (and works without
 * JavaScript). A new filter starts from the first page.
 */
export function ReportFilters({ filters, people, timeZone }: Props) {
  return (
    <form method="get" action="/settings/reports" className="report-filters" aria-label="Filter reports">
      <div className="field">
        {/* The zone in the label, not a hint below: the filters' fields stay aligned in one row. */}
        <label htmlFor="filter-day">Day ({timeZone})</label>
        <input id="filter-day" name="day" type="date" defaultValue={filters.day ?? ""} />
      </div>
      <div className="field">
        <label htmlFor="filter-scope">Scope</label>
        <select id="filter-scope" name="scope" defaultValue={filters.scope ?? ""}>
          <option value="">Any scope</option>
          {SCOPES.map((scope) => (
            <option key={scope.value} value={scope.value}>
              {scope.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-person">Person</label>
        <select id="filter-person" name="person" defaultValue={filters.person ?? ""}>
          <option value="">Anyone</option>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <button type="submit" className="button button--secondary">
          Show reports
        </button>
        <Link href="/settings/reports">Clear filters</Link>
      </div>
    </form>
  );
}
