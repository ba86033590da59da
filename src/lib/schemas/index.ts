/** Shared zod schemas: field rules, call inputs, and the issue → message mapping. */
export * from './fields.ts';
export * from './system.ts';
export * from './auth.ts';
export * from './account.ts';
export * from './issues.ts';
