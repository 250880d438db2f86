-- Report history for agents: filters by scope and member, full-text search and keyset pages (issue 13).

-- The report's text as the API serves it: contact details removed (lib/data/report-search-text.ts), so a search
-- can never tell whether an address appears in a report. Written by the application with every report;
-- NULL until then (rows from before this migration are filled in at start-up), and a NULL row matches no search.
ALTER TABLE "reports" ADD COLUMN "search_text" TEXT;

-- The searchable words, kept by the database from search_text.
ALTER TABLE "reports" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('english', coalesce("search_text", ''))) STORED;

-- CreateIndex
CREATE INDEX "reports_search_vector_idx" ON "reports" USING GIN ("search_vector");

-- Newest first within one scope, or about one lead or member, with the same tie-break as the list.
CREATE INDEX "reports_organization_id_scope_generated_at_id_idx" ON "reports"("organization_id", "scope", "generated_at" DESC, "id" DESC);
CREATE INDEX "reports_organization_id_scope_target_id_generated_at_id_idx" ON "reports"("organization_id", "scope_target_id", "generated_at" DESC, "id" DESC);

-- Rows written before search_text existed, found without a scan when the application fills them in.
CREATE INDEX "reports_search_text_missing_idx" ON "reports"("id") WHERE "search_text" IS NULL;
