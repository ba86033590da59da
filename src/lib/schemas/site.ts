/** Inputs of the site administration calls (/api/admin/site/*, src/server/routes/siteAdmin.ts). */
import { z } from 'zod/mini';
import { recordIdSchema } from './fields.ts';

/** POST /api/admin/site/rollback — the build to publish again. */
export const siteRollbackBody = z.object({ buildId: recordIdSchema });

/** POST /api/admin/site/rebuild — `full=1` builds every page even when an incremental build could do. */
export const siteRebuildBody = z.object({ full: z.optional(z.enum(['0', '1'])) });
