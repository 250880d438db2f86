-- A person's contact details beyond the two on their roster row (members.email, members.chat_handle): more
-- addresses, more chat handles, phone numbers (lib/data/members.ts). Stored so that the scrubber masks them in the
-- organization's report text (lib/data/known-contacts.ts reads them) and never served by any surface.
CREATE TYPE "member_contact_kind" AS ENUM ('email', 'chat', 'phone');

CREATE TABLE "member_contacts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "kind" "member_contact_kind" NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_contacts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "member_contacts_member_id_idx" ON "member_contacts"("member_id");
CREATE INDEX "member_contacts_organization_id_idx" ON "member_contacts"("organization_id");

ALTER TABLE "member_contacts" ADD CONSTRAINT "member_contacts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "member_contacts" ADD CONSTRAINT "member_contacts_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A person's e-mail matches the roster's import case-insensitively, so the search by it is indexed so.
CREATE INDEX "members_organization_id_lower_email_idx" ON "members"("organization_id", lower("email"));

-- The contacts version moves with these details too (prisma/migrations/20261202000000_contacts_version).
CREATE FUNCTION "member_contacts_changed"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "bump_contacts_version"(OLD."organization_id");
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."organization_id" IS DISTINCT FROM OLD."organization_id") THEN
    PERFORM "bump_contacts_version"(NEW."organization_id");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "member_contacts_version"
  AFTER INSERT OR DELETE OR UPDATE ON "member_contacts"
  FOR EACH ROW EXECUTE FUNCTION "member_contacts_changed"();
