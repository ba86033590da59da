/**
 * Visitors' requirements (需求提交): checked against the content (the region must be one the
 * visitor can choose, the business type one it offers), limited per IP, stored for the retail
 * companies' operators to call back.
 */
import { ApiCode } from '../../lib/apiCodes.ts';
import type { SubmitRequirement } from '../../lib/schemas/requirement.ts';
import { bizTypesOfArea } from '../../content/query.ts';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import { requirements } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { requireRegion } from './contentLookup.ts';
import { hitLimit, type RateRule } from './rateLimit.ts';

/** A real visitor rarely asks more than a few times; a form-filling bot is stopped quickly. */
export const requirementPerIp: RateRule = { name: 'requirement.ip', limit: 5, windowSeconds: 3600 };

/** Stores one requirement; returns its id. Throws 400/404 for content it does not match, 429 over the limit. */
export async function submitRequirement(
  db: Database,
  content: SiteContent,
  input: SubmitRequirement,
  ip: string | null,
  rule: RateRule = requirementPerIp,
): Promise<{ requirementId: number }> {
  requireRegion(content, input.areaCode);
  if (
    input.bizTypeId &&
    !bizTypesOfArea(content, input.areaCode, 'all').some((type) => type.bizTypeId === input.bizTypeId)
  ) {
    throw new ApiError(ApiCode.BAD_REQUEST, 'content.requirementBizType');
  }
  return db.transaction(async (tx) => {
    // Counted in the transaction: a refused or failed submission leaves the count as it was.
    const verdict = await hitLimit(tx, rule, ip ?? 'unknown');
    if (!verdict.allowed) {
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, 'content.requirementTooMany', {
        minutes: Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60)),
      });
    }
    const [row] = await tx
      .insert(requirements)
      .values({
        contactName: input.contactName,
        phone: input.phone,
        company: input.company,
        areaCode: input.areaCode,
        bizTypeId: input.bizTypeId,
        content: input.content,
        ip,
      })
      .returning({ id: requirements.id });
    return { requirementId: row?.id ?? 0 };
  });
}
