-- What people write (issue 38): one update per person per day, absences, KPI targets, and when each organization's
-- day ends. Sundown writes member, lead and organization reports from these at the organization's cutoff
-- (lib/generation), as ordinary reports.

-- The time of day, in the organization's time zone, at which a working day's reports are generated, and which days
-- of the week are working days (ISO: 1 = Monday … 7 = Sunday). 18:00, Monday to Friday unless a founder says else.
ALTER TABLE "organizations"
  ADD COLUMN "cutoff_time" TEXT NOT NULL DEFAULT '18:00'
    CONSTRAINT "organizations_cutoff_time_check" CHECK ("cutoff_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  ADD COLUMN "working_days" SMALLINT[] NOT NULL DEFAULT '{1,2,3,4,5}'
    CONSTRAINT "organizations_working_days_check"
      CHECK ("working_days" <@ '{1,2,3,4,5,6,7}'::SMALLINT[] AND cardinality("working_days") >= 1);

CREATE TYPE "update_source" AS ENUM ('page', 'ingest', 'import');

-- One person's day, as written: { shipped: [{ title }], slipping: [{ item, reason?, due? }], blockers:
-- [{ description }], kpis: [{ name, value, unit? }], note: string | null } (lib/data/updates.ts checks it). Writing
-- the same day again replaces the row; the text is stored as written and masked when served, as report text is.
CREATE TABLE "updates" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL,
  "member_id" UUID NOT NULL,
  "day" DATE NOT NULL,
  "content" JSONB NOT NULL,
  "source" "update_source" NOT NULL,
  "written_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "updates_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "updates_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "updates_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "updates_organization_id_member_id_day_key" ON "updates" ("organization_id", "member_id", "day");
-- Generation reads one organization's days.
CREATE INDEX "updates_organization_id_day_idx" ON "updates" ("organization_id", "day");

-- A person away from first_day to last_day, both included: neither silent nor counted in a silent streak. Only
-- "away" is ever shown; no reason is stored.
CREATE TABLE "absences" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" UUID NOT NULL,
  "member_id" UUID NOT NULL,
  "first_day" DATE NOT NULL,
  "last_day" DATE NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "absences_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "absences_days_check" CHECK ("last_day" >= "first_day"),
  CONSTRAINT "absences_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "absences_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The same stretch twice is one absence (imports are idempotent).
CREATE UNIQUE INDEX "absences_member_id_first_day_last_day_key" ON "absences" ("member_id", "first_day", "last_day");
CREATE INDEX "absences_organization_id_last_day_idx" ON "absences" ("organization_id", "last_day");

-- A KPI's target, set by founders: a value at or above it (at_least) or at or below it (at_most) is on track.
-- name_key is the name folded (case, accents, punctuation) as report items fold it, so "MRR" and "mrr" are one KPI.
CREATE TABLE "kpi_targets" (
  "organization_id" UUID NOT NULL,
  "name_key" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "target" DOUBLE PRECISION NOT NULL,
  "direction" TEXT NOT NULL DEFAULT 'at_least' CONSTRAINT "kpi_targets_direction_check" CHECK ("direction" IN ('at_least', 'at_most')),
  "unit" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "kpi_targets_pkey" PRIMARY KEY ("organization_id", "name_key"),
  CONSTRAINT "kpi_targets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Each organization's generated days: claimed by one instance at a time (leased_until), done when generated_at is
-- set, and to be done again when stale (an update, an absence or a target changed that day's inputs after it was
-- generated). lib/generation owns it.
CREATE TABLE "report_generations" (
  "organization_id" UUID NOT NULL,
  "day" DATE NOT NULL,
  "generated_at" TIMESTAMPTZ(3),
  "stale" BOOLEAN NOT NULL DEFAULT false,
  "leased_until" TIMESTAMPTZ(3),
  CONSTRAINT "report_generations_pkey" PRIMARY KEY ("organization_id", "day"),
  CONSTRAINT "report_generations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- What a pass looks for: days never generated, or stale.
CREATE INDEX "report_generations_pending_idx" ON "report_generations" ("day") WHERE "generated_at" IS NULL OR "stale";
