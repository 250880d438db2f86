-- Reports searchable through the index as soon as they are written.
--
-- With GIN's default fastupdate, new entries wait in a pending list (up to gin_pending_list_limit, 4 MB) until a
-- VACUUM or the list's overflow merges them; every search reads that list whole, and the planner prices it at a
-- random page read per pending page. After an import of 24,000 reports the list held 267 pages, which made a
-- search for a rare word cost about as much as reading every report, and PostgreSQL chose to read every report
-- (seen in CI on tests/integration/report-index.test.ts). Reports are written a few a day per organization, or
-- once in bulk by `sundown import`, so the faster writes fastupdate buys are worth nothing here: writing 24,000
-- reports straight into the index took 0.41 s against 0.23 s.
ALTER INDEX "reports_search_vector_idx" SET (fastupdate = off);

-- Turning it off does not merge what is already pending.
SELECT gin_clean_pending_list('reports_search_vector_idx'::regclass);
