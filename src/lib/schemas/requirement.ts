/**
 * The requirement form (需求提交, POST /api/front/requirement/submitRequirement): one schema for
 * the island's form and the server. The server also checks that the region and the business type
 * exist in the content.
 */
import { z } from 'zod/mini';
import { areaCodeSchema, phoneSchema } from './fields.ts';

export const requirementLimits = {
  contactName: 32,
  company: 100,
  contentMin: 5,
  contentMax: 1000,
} as const;

export const submitRequirementBody = z.object({
  contactName: z.string().check(z.trim(), z.minLength(1), z.maxLength(requirementLimits.contactName)),
  phone: phoneSchema,
  /** Optional: an individual may ask too. */
  company: z._default(z.string().check(z.trim(), z.maxLength(requirementLimits.company)), ''),
  areaCode: areaCodeSchema,
  /** Optional: the business type the request is about (business-types.yaml id). */
  bizTypeId: z._default(z.string().check(z.trim(), z.regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)?$/)), ''),
  content: z
    .string()
    .check(z.trim(), z.minLength(requirementLimits.contentMin), z.maxLength(requirementLimits.contentMax)),
});
export type SubmitRequirementBody = z.input<typeof submitRequirementBody>;
export type SubmitRequirement = z.output<typeof submitRequirementBody>;
