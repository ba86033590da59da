/**
 * The database schema (drizzle, PostgreSQL dialect), one file per feature, all exported here.
 * Names: snake_case columns, camelCase fields, plural table names; times are `timestamptz`; ids are
 * identity integers except where the id is itself meaningful (a region's area code, a session's
 * token hash). Changing it: edit the feature's file (or add one and export it below), run
 * `npm run db:generate`, commit the new migration (docs/api-plumbing.md).
 */
export * from './foundation.ts';
export * from './sms.ts';
export * from './content.ts';
export * from './accounts.ts';
export * from './orders.ts';
export * from './partners.ts';
export * from './studio.ts';
export * from './security.ts';
export * from './privacy.ts';
