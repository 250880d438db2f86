-- The organization's activity trail for every settings section from the Team page on (lib/data/activity.ts): one
-- table that a new section writes to with its own subject types and actions, instead of a table and an enum each.
CREATE TABLE "activity_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "subject_type" TEXT NOT NULL,
    "subject_id" UUID,
    "subject_label" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "detail" JSONB,
    "actor_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_events_pkey" PRIMARY KEY ("id")
);

-- A section's trail: its subject types, newest first.
CREATE INDEX "activity_events_organization_id_subject_type_created_at_idx" ON "activity_events"("organization_id", "subject_type", "created_at");

-- AddForeignKey
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_actor_user_id_fkey" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
