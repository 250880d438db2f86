-- Webhooks that one organization cannot stall (issue 34): deliveries are leased round-robin across organizations,
-- a few at a time for each (lib/webhooks/deliver.ts), and the outbox is expanded in chunks, each row taking its
-- turn again after each chunk (lib/webhooks/relay.ts).

-- Each organization's due deliveries, oldest first, found without reading any other organization's backlog.
CREATE INDEX "webhook_deliveries_organization_due_idx" ON "webhook_deliveries" ("organization_id", "next_attempt_at")
    WHERE "state" = 'pending';

-- The deliveries leased now (in flight) or left leased by an outcome that could not be recorded.
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries" ("organization_id", "lease_until")
    WHERE "state" = 'pending' AND "lease_until" IS NOT NULL;

-- When an outbox row is next expanded by a chunk: its creation at first, then after each chunk the time of it, so
-- that rows (and organizations) take turns.
ALTER TABLE "webhook_outbox" ADD COLUMN "turn_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
CREATE INDEX "webhook_outbox_turn_at_idx" ON "webhook_outbox" ("turn_at");

-- Retention: attempts older than 30 days, and messages older than 30 days with nothing left to deliver, are pruned
-- (lib/data/webhook-retention.ts) by time.
CREATE INDEX "webhook_attempts_attempted_at_idx" ON "webhook_attempts" ("attempted_at");
CREATE INDEX "webhook_messages_created_at_idx" ON "webhook_messages" ("created_at");
