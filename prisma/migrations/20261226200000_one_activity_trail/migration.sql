-- One activity trail (docs/decisions.md, "One activity trail"): the keys' and the endpoints' trails of their own join
-- activity_events, each line with the id, actor and time it had, and the two tables go.

-- A key's line names the key as it is called and its hint; a roll's line (recorded on the new key) names the key it
-- replaced and when the roll set that one to stop, when that is known (what the roll did, not the old key's state now).
INSERT INTO "activity_events"
  ("id", "organization_id", "subject_type", "subject_id", "subject_label", "action", "detail", "actor_user_id",
   "actor_label", "created_at")
SELECT e."id", e."organization_id", 'api_key', k."id", k."name", e."action"::text,
       jsonb_strip_nulls(jsonb_build_object(
         'hint', k."hint",
         'replaces', CASE WHEN e."action" = 'rolled' THEN replaced."hint" END,
         'old_key_stops_at', CASE WHEN e."action" = 'rolled' AND replaced."id" IS NOT NULL
           THEN to_char(e."old_key_stops_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END)),
       e."actor_user_id", e."actor_label", e."created_at"
FROM "api_key_events" e
JOIN "api_keys" k ON k."id" = e."api_key_id"
LEFT JOIN "api_keys" replaced ON replaced."rolled_to_id" = k."id";

-- An endpoint's line names it by its URL (a deleted endpoint's lines keep it, with no id); a disabling by delivery
-- keeps its reason ("gone", "failing").
INSERT INTO "activity_events"
  ("id", "organization_id", "subject_type", "subject_id", "subject_label", "action", "detail", "actor_user_id",
   "actor_label", "created_at")
SELECT e."id", e."organization_id", 'webhook_endpoint', e."endpoint_id", e."endpoint_url", e."action"::text,
       CASE WHEN e."detail" IS NOT NULL THEN jsonb_build_object('reason', e."detail") END,
       e."actor_user_id", e."actor_label", e."created_at"
FROM "webhook_endpoint_events" e;

DROP TABLE "api_key_events";
DROP TABLE "webhook_endpoint_events";
DROP TYPE "api_key_action";
DROP TYPE "webhook_endpoint_action";

-- Who created a key or an endpoint, when no user did (the CLI): read from its "created" (or a key's "rolled") line.
CREATE INDEX "activity_events_subject_type_subject_id_idx" ON "activity_events"("subject_type", "subject_id");
