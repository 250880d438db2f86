-- Which version of what a briefing reads an organization is at (lib/data/briefing-cache.ts), so that a server can
-- keep a briefing it computed and serve it again while nothing it read has changed: the organization's reports (and
-- with them their items, written in the same transaction) and its absences. Every statement that stores, replaces
-- or deletes any of them takes a new value from one sequence, in the changing transaction, as contacts_version does:
-- a version names one organization's state exactly, across organizations and for good. Statement-level triggers, so
-- an import of a thousand reports moves it once.
CREATE SEQUENCE "briefing_version_seq";
ALTER TABLE "organizations" ADD COLUMN "briefing_version" BIGINT NOT NULL DEFAULT nextval('briefing_version_seq');
ALTER SEQUENCE "briefing_version_seq" OWNED BY "organizations"."briefing_version";

CREATE FUNCTION "bump_briefing_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "organizations" SET "briefing_version" = nextval('briefing_version_seq')
      WHERE "id" IN (SELECT DISTINCT "organization_id" FROM "changed_old");
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE "organizations" SET "briefing_version" = nextval('briefing_version_seq')
      WHERE "id" IN (SELECT DISTINCT "organization_id" FROM "changed_new");
  ELSE
    UPDATE "organizations" SET "briefing_version" = nextval('briefing_version_seq')
      WHERE "id" IN (SELECT "organization_id" FROM "changed_old" UNION SELECT "organization_id" FROM "changed_new");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "reports_briefing_version_insert" AFTER INSERT ON "reports"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "bump_briefing_version"();
CREATE TRIGGER "reports_briefing_version_update" AFTER UPDATE ON "reports"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "bump_briefing_version"();
CREATE TRIGGER "reports_briefing_version_delete" AFTER DELETE ON "reports"
  REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "bump_briefing_version"();

CREATE TRIGGER "absences_briefing_version_insert" AFTER INSERT ON "absences"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "bump_briefing_version"();
CREATE TRIGGER "absences_briefing_version_update" AFTER UPDATE ON "absences"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "bump_briefing_version"();
CREATE TRIGGER "absences_briefing_version_delete" AFTER DELETE ON "absences"
  REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "bump_briefing_version"();
