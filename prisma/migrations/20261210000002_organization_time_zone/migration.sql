-- The organization's IANA time zone (issue 37), in which its days are counted. UTC for every existing organization,
-- so each reads exactly as before until someone sets it (`sundown orgs update <slug> --time-zone <name>`). Names are
-- checked when written, against the runtime's Intl list and the database's own (lib/data/organizations.ts).
ALTER TABLE "organizations" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
