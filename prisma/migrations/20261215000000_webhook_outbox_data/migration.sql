-- Events about what no longer exists (report.deleted) carry their data in the outbox row itself: the report is gone
-- when the relay expands the row, so its summary is written beside the deletion, in the same transaction.
ALTER TABLE "webhook_outbox" ADD COLUMN "data" JSON;
-- json, not jsonb, as webhook_messages.data: receivers get the summary's fields in the API's order.
