/**
 * The whole loaded content in one locale (translations.ts): what a page of that locale and the
 * content calls of a request in it read. Localized once per content snapshot and locale.
 */
import { z } from 'zod/mini';
import {
  bizItemSchema,
  bizTypeSchema,
  customerNoticeSchema,
  dictionariesFileSchema,
  helpDocumentSchema,
  helpSectionSchema,
  industrySchema,
  legalDocumentFrontSchema,
  legalDocumentIds,
  markdownField,
  newsSchema,
  orgComSchema,
  problemGuideSchema,
  productSchema,
  regionSchema,
  setSchema,
  type SiteContent,
} from './schemas.ts';
import { localizeValue } from './translations.ts';

const legalDocumentSchema = z.extend(legalDocumentFrontSchema, {
  documentId: z.enum(legalDocumentIds),
  content: markdownField,
});

/** The schema of each collection that holds translatable text. */
const collectionSchemas: Partial<Record<keyof SiteContent, z.core.$ZodType>> = {
  regions: z.array(regionSchema),
  bizTypes: z.array(bizTypeSchema),
  bizItems: z.array(bizItemSchema),
  products: z.array(productSchema),
  orgComs: z.array(orgComSchema),
  sets: z.array(setSchema),
  dictionaries: dictionariesFileSchema,
  industries: z.array(industrySchema),
  news: z.array(newsSchema),
  helpSections: z.array(helpSectionSchema),
  helpDocuments: z.array(helpDocumentSchema),
  problemGuides: z.array(problemGuideSchema),
  customerNotices: z.array(customerNoticeSchema),
  legalDocuments: z.array(legalDocumentSchema),
};

const cache = new WeakMap<SiteContent, Map<string, SiteContent>>();

/** `content` in `locale`: translated where a translation exists, else the Chinese original (marked: `contentLang`). */
export function localizeSiteContent(content: SiteContent, locale: string): SiteContent {
  let byLocale = cache.get(content);
  if (!byLocale) cache.set(content, (byLocale = new Map()));
  let localized = byLocale.get(locale);
  if (!localized) {
    localized = Object.fromEntries(
      Object.entries(content).map(([name, value]) => {
        const schema = collectionSchemas[name as keyof SiteContent];
        return [name, schema ? localizeValue(schema, value, locale) : value];
      }),
    ) as unknown as SiteContent;
    byLocale.set(locale, localized);
  }
  return localized;
}
