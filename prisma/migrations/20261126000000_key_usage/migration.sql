-- Requests per API key per UTC day, split by outcome. Each server instance counts in memory and adds its totals
-- here about once a minute (lib/usage/), so the columns only ever grow by addition and several instances sum.
-- CreateTable
CREATE TABLE "api_key_usage" (
    "api_key_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "client_errors" INTEGER NOT NULL DEFAULT 0,
    "rate_limited" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "api_key_usage_pkey" PRIMARY KEY ("api_key_id","day")
);

-- CreateIndex
CREATE INDEX "api_key_usage_organization_id_day_idx" ON "api_key_usage"("organization_id", "day");

-- AddForeignKey
ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
