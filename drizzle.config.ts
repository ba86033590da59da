import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration for every change to the schema; the server
// applies them at start (src/server/db/migrate.ts). Commit the generated files.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
  strict: true,
  verbose: false,
});
