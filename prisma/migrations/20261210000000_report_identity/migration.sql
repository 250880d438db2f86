-- A report is identified by its id, or by its organization, scope, target and generated_at (issue 37): importing it
-- again changes nothing, and a unique index holds the second rule for every writer. Reports stored before then may
-- repeat one another (an import retried after a timeout stored the same report twice). They are kept, served as
-- before, and marked with the report they repeat, so that the index can exist without deleting anything:
-- `sundown reports duplicates --org <slug>` lists them and `sundown reports delete <id>` removes the unwanted ones
-- (deleting the report others repeat makes the oldest of them the one an import matches; lib/data/report-deletion.ts).
ALTER TABLE "reports" ADD COLUMN "duplicate_of" UUID;

-- In each group sharing organization, scope, target and generated_at, the oldest stored report (created_at, then id)
-- stays the group's one identified report; every later one is marked. PARTITION BY groups NULL targets (the org
-- scope's) together, as the index below does.
UPDATE "reports" AS r
SET "duplicate_of" = g."first_id"
FROM (
  SELECT "id",
         first_value("id") OVER w AS "first_id",
         row_number() OVER w AS "position"
  FROM "reports"
  WINDOW w AS (PARTITION BY "organization_id", "scope", "scope_target_id", "generated_at" ORDER BY "created_at", "id")
) AS g
WHERE r."id" = g."id" AND g."position" > 1;

-- The org scope's NULL target is a value here (NULLs are otherwise distinct in a unique index, and PostgreSQL before
-- 15 has no NULLS NOT DISTINCT): lookups use the same expression (lib/data/report-identity.ts), so they use the index.
CREATE UNIQUE INDEX "reports_identity_key" ON "reports" (
  "organization_id",
  "scope",
  COALESCE("scope_target_id", '00000000-0000-0000-0000-000000000000'::uuid),
  "generated_at"
) WHERE "duplicate_of" IS NULL;

-- The marked ones, found without a scan (doctor, `reports duplicates`, a deletion promoting the next of a group).
CREATE INDEX "reports_duplicate_of_idx" ON "reports" ("duplicate_of") WHERE "duplicate_of" IS NOT NULL;
