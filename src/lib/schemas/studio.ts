/**
 * Inputs of the editors' studio calls (/api/studio/*, src/server/routes/studio.ts). An item's data
 * is checked afterwards with its kind's own content schema (src/content/kinds.ts), the one the
 * build loads it with, so a field's rule is written once.
 */
import { z } from 'zod/mini';
import { contentKinds, kindOfPath } from '../../content/paths.ts';
import { maxMarkdownLength } from '../../content/limits.ts';
import { instantOfChinaDateTime } from '../chinaTime.ts';
import { recordIdSchema, uploadedFileSchema } from './fields.ts';

/** A content item's file path (`news/<id>.md`, `business-types.yaml`, …). */
export const contentPathSchema = z.string().check(
  z.maxLength(200),
  z.refine((path) => kindOfPath(path) !== undefined, { message: 'rebuild.badPath' }),
);

/** An item's revision as the editor last read it; 0 for a new item. */
const revisionSchema = z.coerce.number().check(z.int(), z.gte(0), z.lte(2_147_483_647));
const versionSchema = z.coerce.number().check(z.int(), z.gte(1), z.lte(2_147_483_647));

export const studioKindQuery = z.object({ kind: z.enum(contentKinds) });
export const studioPathQuery = z.object({ path: contentPathSchema });
export const studioVersionQuery = z.object({ path: contentPathSchema, version: versionSchema });
export const studioBuildQuery = z.object({ buildId: recordIdSchema });

/** POST item: the data is checked with the item's own schema after this. */
export const studioSaveBody = z.object({ path: contentPathSchema, data: z.unknown(), revision: revisionSchema });
export const studioPathBody = z.object({ path: contentPathSchema });
export const studioDeleteBody = z.object({ path: contentPathSchema, revision: revisionSchema });
export const studioRestoreBody = z.object({
  path: contentPathSchema,
  version: versionSchema,
  revision: revisionSchema,
});

/** POST preview / publish: the drafts to carry (all when omitted). */
export const studioBuildBody = z.object({ paths: z.optional(z.array(contentPathSchema).check(z.maxLength(1000))) });
export const studioRollbackBody = z.object({ buildId: recordIdSchema });

/** POST markdown: a Markdown field's source (as long as a field may be), rendered as the site will show it. */
export const studioMarkdownBody = z.object({ markdown: z.string().check(z.maxLength(maxMarkdownLength)) });

/** Largest content package imported (.zip of the content files). */
export const maxImportBytes = 10 * 1024 * 1024;

const fileSchema = uploadedFileSchema.check(
  z.refine((file) => file.size > 0, { message: 'enterprise.validation.fileEmpty' }),
);
export const studioUploadBody = z.object({ file: fileSchema });

/** POST image/delete: an uploaded image's stored name (`<32 hex of its hash>.<jpg|png|webp>`). */
export const studioImageBody = z.object({
  name: z.string().check(z.regex(/^[0-9a-f]{32}\.(?:jpg|png|webp)$/, { message: 'rebuild.unknownImage' })),
});

/** What a scheduled publication does at its time: publish drafts, or take published items off the site. */
export const scheduleActions = ['publish', 'unpublish'] as const;
export type ScheduleAction = (typeof scheduleActions)[number];
/** How far ahead a publication may be scheduled. */
export const maxScheduleAheadDays = 365;

/**
 * When a scheduled publication runs: a China wall clock (`2026-12-01T09:00`, as the form's
 * datetime-local input gives it, read as UTC+8 whatever the browser's zone), after now and at
 * most a year ahead; the output is the instant.
 */
export const scheduleRunAtSchema = z.pipe(
  z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, { message: 'studio.schedule.runAtFormat' })),
  z.transform((text, context) => {
    const at = instantOfChinaDateTime(text);
    const now = Date.now();
    const problem =
      at === undefined
        ? 'studio.schedule.runAtFormat'
        : at.getTime() <= now
          ? 'studio.schedule.runAtPast'
          : at.getTime() > now + maxScheduleAheadDays * 86_400_000
            ? 'studio.schedule.runAtTooFar'
            : undefined;
    if (!at || problem) {
      context.issues.push({ code: 'custom', message: problem ?? 'studio.schedule.runAtFormat', input: text });
      return z.NEVER;
    }
    return at;
  }),
);

/** POST schedule: publish the drafts of `paths`, or take the published `paths` off the site, at `runAt`. */
export const studioScheduleBody = z.object({
  action: z.enum(scheduleActions),
  paths: z.array(contentPathSchema).check(z.minLength(1), z.maxLength(1000)),
  runAt: scheduleRunAtSchema,
});
export const studioScheduleCancelBody = z.object({ id: recordIdSchema });
