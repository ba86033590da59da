/** Regions (provinces): the area list and the check behind the visitor's area choice. */
import { asc, eq } from 'drizzle-orm';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { Province, ProvinceView } from '../../lib/schemas/system.ts';
import type { Database } from '../db/client.ts';
import { regions } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';

export type { ProvinceView } from '../../lib/schemas/system.ts';

/** Enabled regions in display order. */
export async function listProvinces(db: Database): Promise<ProvinceView[]> {
  return db
    .select({
      areaCode: regions.areaCode,
      areaName: regions.name,
      shortName: regions.shortName,
      hotline: regions.hotline,
    })
    .from(regions)
    .where(eq(regions.enabled, true))
    .orderBy(asc(regions.sort), asc(regions.areaCode));
}

/** The region behind an area choice: unknown → 404 `area.unknown`, disabled → 400 `area.disabled`. */
export async function requireEnabledRegion(db: Database, areaCode: string): Promise<Province> {
  const [region] = await db
    .select({ areaCode: regions.areaCode, areaName: regions.name, enabled: regions.enabled })
    .from(regions)
    .where(eq(regions.areaCode, areaCode))
    .limit(1);
  if (!region) throw new ApiError(ApiCode.NOT_FOUND, 'area.unknown');
  if (!region.enabled) throw new ApiError(ApiCode.BAD_REQUEST, 'area.disabled');
  return { areaCode: region.areaCode, areaName: region.areaName };
}
