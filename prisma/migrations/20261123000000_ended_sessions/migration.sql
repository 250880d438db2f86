-- CreateTable
CREATE TABLE "ended_sessions" (
    "session_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ended_sessions_pkey" PRIMARY KEY ("session_id")
);

-- CreateIndex
CREATE INDEX "ended_sessions_expires_at_idx" ON "ended_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "ended_sessions" ADD CONSTRAINT "ended_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
