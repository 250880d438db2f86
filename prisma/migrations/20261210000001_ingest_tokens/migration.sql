-- Ingest tokens (issue 37): the credential of the tools that send reports in (POST /ingest/v1/reports), one
-- organization each. Like API keys, only the SHA-256 of the token is stored, with a display hint; revoked_at is the
-- instant the token stops working (now for a revocation, the end of the overlap for a roll, which may lie ahead).
-- CreateTable
CREATE TABLE "ingest_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "hashed_token" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_by_label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "rolled_to_id" UUID,

    CONSTRAINT "ingest_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ingest_tokens_hashed_token_key" ON "ingest_tokens"("hashed_token");

-- CreateIndex
CREATE UNIQUE INDEX "ingest_tokens_rolled_to_id_key" ON "ingest_tokens"("rolled_to_id");

-- CreateIndex
CREATE INDEX "ingest_tokens_organization_id_created_at_idx" ON "ingest_tokens"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "ingest_tokens" ADD CONSTRAINT "ingest_tokens_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ingest_tokens" ADD CONSTRAINT "ingest_tokens_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ingest_tokens" ADD CONSTRAINT "ingest_tokens_rolled_to_id_fkey" FOREIGN KEY ("rolled_to_id") REFERENCES "ingest_tokens"("id") ON DELETE SET NULL ON UPDATE CASCADE;
