import { defineConfig } from "prisma/config";

// Used by the Prisma CLI only (generate, migrate deploy). The app builds its own client in lib/db.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/sundown" },
});
