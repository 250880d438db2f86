-- The activity trail keeps what each roll set: the instant the old key was to stop working, stored with the roll's
-- event (on the new key). The old key's revoked_at is its current state, which a later revocation during the
-- overlap moves, and which the trail used to read, rewriting the roll's line.
ALTER TABLE "api_key_events" ADD COLUMN "old_key_stops_at" TIMESTAMPTZ(3);

-- Rolls recorded before: the old key's revoked_at still holds what the roll set unless the old key was revoked
-- since (a revoked key is never rolled, so any "revoked" event of it came after its roll). Where it was, the roll's
-- instant is lost and stays NULL: the trail then names the old key without a time.
UPDATE "api_key_events" AS "event"
SET "old_key_stops_at" = "old"."revoked_at"
FROM "api_keys" AS "old"
WHERE "event"."action" = 'rolled'
  AND "old"."rolled_to_id" = "event"."api_key_id"
  AND NOT EXISTS (
    SELECT 1 FROM "api_key_events" AS "revocation"
    WHERE "revocation"."api_key_id" = "old"."id" AND "revocation"."action" = 'revoked'
  );
