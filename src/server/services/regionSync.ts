/**
 * Keeps the `regions` table in step with the content's regions (regions/<areaCode>.yaml), the one
 * source of regions: the table exists for the database's own uses (setProvince's check, area codes
 * of requirements and enterprises), never edited by hand. A region removed from the content is
 * disabled, not deleted, because stored rows may still name it.
 */
import { notInArray, sql } from 'drizzle-orm';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import { regions } from '../db/schema/index.ts';

/** Upserts every content region and disables the others, in one transaction. */
export async function syncRegions(db: Database, content: Pick<SiteContent, 'regions'>): Promise<void> {
  const rows = content.regions.map((region) => ({
    areaCode: region.areaCode,
    name: region.name,
    shortName: region.shortName,
    enabled: region.enabled,
    sort: region.sort,
    hotline: region.hotline,
  }));
  await db.transaction(async (tx) => {
    if (rows.length) {
      await tx
        .insert(regions)
        .values(rows)
        .onConflictDoUpdate({
          target: regions.areaCode,
          set: {
            name: sql`excluded.name`,
            shortName: sql`excluded.short_name`,
            enabled: sql`excluded.enabled`,
            sort: sql`excluded.sort`,
            hotline: sql`excluded.hotline`,
          },
        });
    }
    await tx
      .update(regions)
      .set({ enabled: false })
      .where(notInArray(regions.areaCode, rows.length ? rows.map((row) => row.areaCode) : ['']));
  });
}
