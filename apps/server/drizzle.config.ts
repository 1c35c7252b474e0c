import { defineConfig } from "drizzle-kit";

// Only used to generate SQL migrations from src/db/schema.ts (`npm run db:generate -w @vigil/server`).
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "./src/db/migrations",
});
