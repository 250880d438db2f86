-- Which rules of contact-detail removal made a report's search_text (SEARCH_TEXT_VERSION in
-- lib/data/report-search-text.ts). NULL for reports written before this column, or by a tool that wrote the table
-- directly. At start-up the server writes the search text of every report under an older version again
-- (lib/data/report-search-backfill.ts), so a search never finds what a response would not show (issue 21).
ALTER TABLE "reports" ADD COLUMN "search_text_version" INTEGER;

-- Those reports, found without a scan. It covers what the index of reports without search text served.
CREATE INDEX "reports_search_text_version_idx" ON "reports"("search_text_version");
DROP INDEX "reports_search_text_missing_idx";
