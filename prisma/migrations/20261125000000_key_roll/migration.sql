-- Rolling a key (issue 15): a new secret replaces the old one, which keeps working for a chosen overlap.

-- AlterEnum: the audit event of a roll, recorded on the key the roll created.
ALTER TYPE "api_key_action" ADD VALUE 'rolled';

-- revoked_at is the instant a key stops working. A revocation sets it to now; a roll sets it to the end of the
-- overlap, which may lie in the future. rolled_to_id links a rolled key to the key that replaced it; a key is
-- rolled at most once, and a key replaces at most one other.
ALTER TABLE "api_keys" ADD COLUMN "rolled_to_id" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_rolled_to_id_key" ON "api_keys"("rolled_to_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rolled_to_id_fkey" FOREIGN KEY ("rolled_to_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
