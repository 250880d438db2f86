-- Which version of its members' contact details an organization is at, so a report read brings the details
-- only to a server that does not hold them yet (lib/data/held-contacts.ts). Every change to what
-- lib/data/known-contacts.ts reads (members' email, chat handle and organization; their sign-ins' email and
-- member) takes a new value from one sequence, in the changing transaction: a version names one organization's
-- details exactly, across organizations and for good, and a read sees the version and the details of one snapshot.
CREATE SEQUENCE "contacts_version_seq";
ALTER TABLE "organizations" ADD COLUMN "contacts_version" BIGINT NOT NULL DEFAULT nextval('contacts_version_seq');
ALTER SEQUENCE "contacts_version_seq" OWNED BY "organizations"."contacts_version";

CREATE FUNCTION "bump_contacts_version"(organization UUID) RETURNS VOID LANGUAGE sql AS $$
  UPDATE "organizations" SET "contacts_version" = nextval('contacts_version_seq') WHERE "id" = organization;
$$;

CREATE FUNCTION "members_contacts_changed"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "bump_contacts_version"(OLD."organization_id");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."organization_id" IS DISTINCT FROM OLD."organization_id") THEN
    PERFORM "bump_contacts_version"(NEW."organization_id");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "members_contacts_version"
  AFTER INSERT OR DELETE OR UPDATE OF "email", "chat_handle", "organization_id" ON "members"
  FOR EACH ROW EXECUTE FUNCTION "members_contacts_changed"();

CREATE FUNCTION "users_contacts_changed"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  -- A sign-in counts toward its member's organization; a member deleted with it is counted by the members trigger.
  PERFORM "bump_contacts_version"(m."organization_id") FROM "members" m
    WHERE m."id" IN (
      CASE WHEN TG_OP <> 'INSERT' THEN OLD."member_id" END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW."member_id" END
    );
  RETURN NULL;
END;
$$;

CREATE TRIGGER "users_contacts_version"
  AFTER INSERT OR DELETE OR UPDATE OF "email", "member_id" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_contacts_changed"();
