-- The usage batches already added to api_key_usage, by the id each instance gives a batch (lib/usage/counter.ts):
-- a batch written again after its reply was lost adds nothing twice. Kept a day, far longer than a retry waits.
-- CreateTable
CREATE TABLE "api_key_usage_batches" (
    "id" UUID NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_key_usage_batches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "api_key_usage_batches_applied_at_idx" ON "api_key_usage_batches"("applied_at");
