/**
 * Import of a content package: a .zip of content files in the import/export format (what the
 * studio's export gives, or `src/content` zipped by a team that keeps its content in git). Every
 * file that differs from the item's current state becomes a draft; a file that cannot be read, or
 * whose data fails its kind's schema, refuses the whole package (400 naming the file and field)
 * and nothing is saved. The zip is read with the spreadsheet reader's bomb checks.
 */
import { eq } from 'drizzle-orm';
import { strFromU8 } from 'fflate';
import { kindOfPath } from '../../content/paths.ts';
import { kindSpecs } from '../../content/kinds.ts';
import { translator, type Locale } from '../../lib/i18n/index.ts';
import { localizeIssues } from '../../lib/schemas/issues.ts';
import type { Database } from '../db/client.ts';
import { contentItems } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { isMessageKey } from '../envelope.ts';
import { readZipDirectory, unpackEntry, XlsxRefused, type XlsxReadLimits } from '../xlsx/reader.ts';
import { canonicalData, ContentFileError, itemsOfFiles } from './contentRepo.ts';
import type { ContentImportResult } from '../../lib/studio/answers.ts';

const packageLimits: XlsxReadLimits = {
  maxEntries: 5000,
  maxPartBytes: 2 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxSheetBytes: 0,
  maxSharedStringsBytes: 0,
  maxOtherPartBytes: 0,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

function invalid(locale: Locale, problem: { path: string; field: string; message: string }): ApiError {
  const detail = `${problem.path}: ${problem.field ? `${problem.field}: ` : ''}${problem.message}`;
  return new ApiError(
    400,
    'rebuild.contentInvalid',
    { detail },
    problem,
    translator(locale)('rebuild.contentInvalid', { detail }),
  );
}

export async function importPackage(
  db: Database,
  bytes: Uint8Array,
  userId: number,
  locale: Locale,
): Promise<ContentImportResult> {
  const files = new Map<string, string>();
  try {
    const directory = readZipDirectory(bytes, packageLimits);
    for (const entry of directory.entries) {
      if (entry.name.endsWith('/')) continue;
      // A package zipped with its folder (`content/news/a.md`) reads the same as one zipped inside it.
      const name = entry.name.replace(/^(?:\.\/)?(?:src\/)?content\//, '');
      files.set(name, strFromU8(await unpackEntry(bytes, directory, entry)));
    }
  } catch (error) {
    if (error instanceof XlsxRefused) throw ApiError.field('file', 'rebuild.importInvalid');
    throw error;
  }
  // Files that are no item's (schemas, READMEs) are left out, as the seed leaves them out.
  let items;
  try {
    items = itemsOfFiles(new Map([...files].filter(([name]) => kindOfPath(name) !== undefined)));
  } catch (error) {
    if (error instanceof ContentFileError)
      throw invalid(locale, { path: error.path, field: error.field, message: error.problem });
    throw error;
  }
  if (!items.length) throw ApiError.field('file', 'rebuild.importInvalid');
  const t = translator(locale);
  for (const item of items) {
    const schema = kindSpecs[item.kind].schema;
    const result = schema.safeParse(item.data);
    if (!result.success) {
      const [first] = localizeIssues(result.error.issues, { input: item.data, schema, t, hasKey: isMessageKey });
      throw invalid(locale, { path: item.path, field: first?.field ?? '', message: first?.message ?? '' });
    }
  }
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const item of items) {
      const [row] = await tx.select().from(contentItems).where(eq(contentItems.path, item.path)).for('update');
      const current = row ? (row.draftDeleted ? null : (row.draft ?? row.published)) : null;
      if (current !== null && canonicalData(current) === canonicalData(item.data)) continue;
      changed += 1;
      const draft = { draft: item.data, draftDeleted: false, draftBy: userId, draftAt: new Date() };
      if (row)
        await tx
          .update(contentItems)
          .set({ ...draft, revision: row.revision + 1 })
          .where(eq(contentItems.path, item.path));
      else await tx.insert(contentItems).values({ path: item.path, kind: item.kind, ...draft });
    }
    return { changed, unchanged: items.length - changed };
  });
}
