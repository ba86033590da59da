/**
 * Zod schemas of every content collection: what an editor may save in the studio (`/studio`, kept
 * in the database: docs/editing-content.md), and (through each schema's output type) what the pages
 * and the content API read after loading.
 *
 * The files under `src/content` (CONTENT_DIR) are the seed an empty database starts from and the
 * import/export format of a content package; they are read with the same schemas. Their layout,
 * with ids written as `<…>` taken from the file or folder name, never from inside the file, so an
 * entry cannot disagree with its own path:
 *
 *   regions/<areaCode>.yaml                region + area settings (hotline, offered business types
 *                                          and products, banners, text banners, home notices)
 *   business-types.yaml                    list of business types
 *   business/<areaCode>/<bizItemId>.yaml   a business item of a region (descList tabs in Markdown)
 *   products.yaml                          the five products id1…id5
 *   org-coms.yaml                          retail electricity companies (orgCom)
 *   sets/<areaCode>/<setId>.yaml           a package (set) of a product in a region, with its scheme
 *                                          parameters, set filters and its selling sets
 *   dictionaries.yaml                      dictionaries by categoryCode (newsType, voltageLevel, …)
 *   industries.yaml                        the industry list (GB/T 4754-2017 sections A–T)
 *   news/<newsId>.md                       a news item: YAML front matter + Markdown body
 *   help/catalogue.yaml                    help catalogue: sections listing their documents
 *   help/<documentId>.md                   a help document: front matter + Markdown content
 *   problem-guides.yaml                    problem guides (Q&A), answers in Markdown
 *   notices/<noticeId>.md                  a customer notice (公告): front matter + Markdown content
 *   legal/<documentId>.md                  the user agreement and the privacy policy (user-agreement,
 *                                          privacy-policy): version, effective date, what changed
 *
 * File-name ids (`bizItemId`, `setId`, `newsId`, `documentId`, `noticeId`) are lower-case slugs
 * (`a-z`, `0-9`, `-`) because they appear in URLs; each is unique across the whole content, not
 * only within its folder (the API looks them up without a region). Dates are `YYYY-MM-DD`.
 * Markdown fields (`markdownField`: `desc`, `body`, `content`, `answer`, `description`) hold the
 * editor's source here; load.ts renders each to safe HTML (markdown.ts, found by
 * `mapMarkdownFields`), so their loaded value is HTML. The schemas themselves render nothing: the
 * studio's islands check forms with them and must not ship the renderer.
 *
 * Cross-references (a region's business types, a set's product, a selling set's orgCom, a news
 * item's type, …) are checked by `load.ts` after every file has passed its schema.
 *
 * Written with `zod/mini` like the shared schemas of src/lib/schemas (see fields.ts): the studio's
 * item editor loads them in the browser.
 */
import { z } from 'zod/mini';
import { maxMarkdownLength } from './limits.ts';
import { slugPattern } from './paths.ts';
import { defOf, wrappedSchema, type SchemaDef } from './schemaDefs.ts';
import { translationsOf } from './translations.ts';

/** GB/T 2260 province-level code. */
export const areaCodeField = z.string().check(z.regex(/^\d{6}$/, 'must be a six-digit GB/T 2260 code'));

/** Ids that appear in URLs. */
export const slugField = z.string().check(z.regex(slugPattern, 'must be a lower-case slug (a-z, 0-9, -)'));

/** A calendar date written `YYYY-MM-DD` that exists. */
export const dateField = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'),
  z.refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'is not a real date'),
);

/** Text shown as is: trimmed, not empty. */
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
/** A translation of a `text(max)`: twice the room (translationsOf). */
const translated = (max: number) => text(max * 2);

/**
 * Markdown written by an editor (GFM). Its source is what the schema checks; load.ts turns every
 * field of this very schema into sanitized HTML (markdown.ts), so editor content never reaches a
 * page unsanitized. Compared by identity (`mapMarkdownFields`, the studio's form walker).
 */
export const markdownField = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(maxMarkdownLength));

const holdsMarkdownCache = new WeakMap<SchemaDef, boolean>();

/** Whether a schema's definition holds a Markdown field anywhere inside (also where `mapMarkdownFields` cannot reach it). */
function defHoldsMarkdown(def: SchemaDef): boolean {
  let holds = holdsMarkdownCache.get(def);
  if (holds === undefined) holdsMarkdownCache.set(def, (holds = holdsMarkdown(def)));
  return holds;
}

function holdsMarkdown(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === markdownField) return true;
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  const def = (value as { _zod?: { def?: unknown } })._zod?.def;
  const parts = def === undefined ? Object.values(value) : Object.values(def as object);
  return parts.some((part) => holdsMarkdown(part, seen));
}

/** Where a field is inside a value: keys and list positions. */
export type FieldPathSegments = readonly (string | number)[];

/**
 * A value parsed with `schema`, with `map` applied to the value of every `markdownField` in it
 * (and given where it is): what load.ts renders. Walks objects, lists, records and
 * optional/default wrappers; a Markdown field inside anything else (a union, a transform's input)
 * throws, so none is left unrendered.
 */
export function mapMarkdownFields(
  schema: z.core.$ZodType,
  value: unknown,
  map: (source: string, path: FieldPathSegments) => string,
  path: FieldPathSegments = [],
): unknown {
  if (schema === markdownField) return typeof value === 'string' ? map(value, path) : value;
  if (value === undefined || value === null) return value;
  const def = defOf(schema);
  const wrapped = wrappedSchema(def);
  if (wrapped) return mapMarkdownFields(wrapped, value, map, path);
  switch (def.type) {
    case 'object': {
      if (typeof value !== 'object' || !def.shape) return value;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, field] of Object.entries(def.shape)) {
        if (Object.hasOwn(out, key)) out[key] = mapMarkdownFields(field, out[key], map, [...path, key]);
      }
      return out;
    }
    case 'array':
      return Array.isArray(value) && def.element
        ? value.map((entry, index) => mapMarkdownFields(def.element!, entry, map, [...path, index]))
        : value;
    case 'record':
      return typeof value === 'object' && def.valueType
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).map(([key, entry]) => [
              key,
              mapMarkdownFields(def.valueType!, entry, map, [...path, key]),
            ]),
          )
        : value;
    default:
      if (defHoldsMarkdown(def)) throw new Error(`a Markdown field inside a zod ${def.type} cannot be rendered`);
      return value;
  }
}

/**
 * A link: a site path (`/welcome/detail/…`) or an absolute http(s) URL. Not `//host` nor `/\host`
 * (browsers read both as another host), so a "site path" always stays on the site.
 */
export const linkField = z
  .string()
  .check(z.regex(/^(\/(?![/\\])[^\s\\]*|https?:\/\/[^\s]+)$/, 'must be a site path starting with / or an http(s) URL'));

/** An image under `public/` (path starting with /) or an absolute http(s) URL. */
export const imageField = linkField;

// ---------------------------------------------------------------------------------------------
// Regions and area settings: regions/<areaCode>.yaml

export const bannerSchema = z.strictObject({
  bannerId: slugField,
  image: imageField,
  /** Alternative text: what the image says, for screen readers and when it fails to load. */
  alt: text(120),
  /** Optional heading drawn over the image. */
  title: z.optional(text(60)),
  link: z.optional(linkField),
  translations: translationsOf({ alt: translated(120), title: translated(60) }),
});

export const textBannerSchema = z.strictObject({
  textBannerId: slugField,
  text: text(120),
  link: z.optional(linkField),
  translations: translationsOf({ text: translated(120) }),
});

export const homeNoticeSchema = z.strictObject({
  homeNoticeId: slugField,
  title: text(120),
  date: dateField,
  /** A customer notice shown on click (notices/<noticeId>.md); else `link`, else plain text. */
  noticeId: z.optional(slugField),
  link: z.optional(linkField),
  translations: translationsOf({ title: translated(120) }),
});

export const regionFileSchema = z.strictObject({
  name: text(64),
  shortName: text(16),
  /** ISO 3166-2:CN subdivision code in lower case (gd, gx, hi, gz, yn): the URL prefix of the region. */
  isoCode: z.string().check(z.regex(/^[a-z]{2}$/, 'must be two lower-case letters (ISO 3166-2:CN)')),
  sort: z.number().check(z.int(), z.gte(0)),
  enabled: z._default(z.boolean(), true),
  hotline: z.string().check(z.regex(/^[0-9-]{5,20}$/, 'must be a phone number of digits and dashes')),
  /** Business types offered here, in menu order (business-types.yaml ids). */
  bizTypeIds: z.array(slugField).check(z.minLength(1)),
  /** Products offered here, in menu order (id1…id5). */
  productIds: z.array(z.enum(['id1', 'id2', 'id3', 'id4', 'id5'])).check(z.minLength(1)),
  banners: z._default(z.array(bannerSchema), []),
  textBanners: z._default(z.array(textBannerSchema), []),
  homeNotices: z._default(z.array(homeNoticeSchema), []),
});
export const regionSchema = z.extend(regionFileSchema, { areaCode: areaCodeField });
export type Region = z.output<typeof regionSchema>;
export type Banner = z.output<typeof bannerSchema>;
export type TextBanner = z.output<typeof textBannerSchema>;
export type HomeNotice = z.output<typeof homeNoticeSchema>;

// ---------------------------------------------------------------------------------------------
// Business types and items: business-types.yaml, business/<areaCode>/<bizItemId>.yaml

export const bizTypeSchema = z.strictObject({
  bizTypeId: slugField,
  name: text(32),
  /** 0 = shown in the menu (spec: menu data with toTop 0); 1 = not in the menu. */
  toTop: z.union([z.literal(0), z.literal(1)]),
  sort: z.number().check(z.int(), z.gte(0)),
  summary: z.optional(text(200)),
  translations: translationsOf({ name: translated(32), summary: translated(200) }),
});
export const bizTypesFileSchema = z.array(bizTypeSchema).check(z.minLength(1));
export type BizType = z.output<typeof bizTypeSchema>;

export const bizItemDescSchema = z.strictObject({
  /** Unique across all items: getBizItemDescById looks it up alone. */
  bizItemDescId: slugField,
  /** The tab's id inside the item; the page's panel id is `{tabId}--{bizItemId}` (spec §9). */
  tabId: slugField,
  title: text(32),
  desc: markdownField,
  translations: translationsOf({ title: translated(32), desc: markdownField }),
});

export const bizItemProductSchema = z.strictObject({
  bizItemProductId: slugField,
  productId: z.enum(['id1', 'id2', 'id3', 'id4', 'id5']),
  /** A set of that product in the same region, when the item recommends one. */
  setId: z.optional(slugField),
});

export const bizItemFileSchema = z.strictObject({
  bizTypeId: slugField,
  title: text(60),
  summary: text(300),
  sort: z._default(z.number().check(z.int(), z.gte(0)), 0),
  descList: z.array(bizItemDescSchema).check(z.minLength(1)),
  bizItemProducts: z._default(z.array(bizItemProductSchema), []),
  translations: translationsOf({ title: translated(60), summary: translated(300) }),
});
export const bizItemSchema = z.extend(bizItemFileSchema, { bizItemId: slugField, areaCode: areaCodeField });
export type BizItem = z.output<typeof bizItemSchema>;
export type BizItemDesc = z.output<typeof bizItemDescSchema>;
export type BizItemProduct = z.output<typeof bizItemProductSchema>;

// ---------------------------------------------------------------------------------------------
// Products, retail companies, sets and selling sets

export const productIds = ['id1', 'id2', 'id3', 'id4', 'id5'] as const;
export type ProductId = (typeof productIds)[number];

export const productSchema = z.strictObject({
  productId: z.enum(productIds),
  name: text(32),
  summary: text(200),
  description: markdownField,
  sort: z.number().check(z.int(), z.gte(0)),
  translations: translationsOf({ name: translated(32), summary: translated(200), description: markdownField }),
});
export const productsFileSchema = z.array(productSchema).check(z.length(5));
export type Product = z.output<typeof productSchema>;

export const orgComSchema = z.strictObject({
  orgComId: slugField,
  name: text(80),
  shortName: text(24),
  /** 统一社会信用代码: 18 characters (digits and upper-case letters without I, O, S, V, Z). */
  creditCode: z
    .string()
    .check(z.regex(/^[0-9A-HJ-NP-RTUWXY]{18}$/, 'must be an 18-character unified social credit code')),
  hotline: z.string().check(z.regex(/^[0-9-]{5,20}$/, 'must be a phone number of digits and dashes')),
  address: text(120),
  /** Regions where it may sell. */
  areaCodes: z.array(areaCodeField).check(z.minLength(1)),
  translations: translationsOf({ name: translated(80), shortName: translated(24), address: translated(120) }),
});
export const orgComsFileSchema = z.array(orgComSchema).check(z.minLength(1));
export type OrgCom = z.output<typeof orgComSchema>;

/**
 * One priced option of a set. Fixed-price style products give an energy price in 元/千瓦时;
 * price-difference products give the retail company's share of the difference in %.
 */
export const schemeParamSchema = z
  .strictObject({
    schemeParamId: slugField,
    name: text(40),
    priceType: z.enum(['energyPrice', 'shareRatio']),
    /** 元/千瓦时, when priceType is energyPrice. */
    energyPrice: z.optional(z.number().check(z.positive(), z.lte(5))),
    /** %, the retail company's share of the price difference, when priceType is shareRatio. */
    shareRatio: z.optional(z.number().check(z.gte(0), z.lte(100))),
    /** Contract lengths offered, in months. */
    contractMonths: z.array(z.number().check(z.int(), z.gte(1), z.lte(120))).check(z.minLength(1)),
    /** voltageLevel dictionary codes this option applies to. */
    voltageLevels: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
    /** Annual consumption range in MWh (max omitted = no upper bound). */
    consumptionMin: z._default(z.number().check(z.gte(0)), 0),
    consumptionMax: z.optional(z.number().check(z.positive())),
    remark: z.optional(text(200)),
    translations: translationsOf({ name: translated(40), remark: translated(200) }),
  })
  .check(
    z.refine((p) => (p.priceType === 'energyPrice' ? p.energyPrice !== undefined : p.shareRatio !== undefined), {
      message: 'energyPrice is required when priceType is energyPrice, shareRatio when it is shareRatio',
      path: ['priceType'],
    }),
    z.refine((p) => p.consumptionMax === undefined || p.consumptionMax > p.consumptionMin, {
      message: 'consumptionMax must be greater than consumptionMin',
      path: ['consumptionMax'],
    }),
  );
export type SchemeParam = z.output<typeof schemeParamSchema>;

/** Who a set is for: the customer must match every listed criterion (an empty list = any). */
export const setFilterSchema = z
  .strictObject({
    /** voltageLevel dictionary codes. */
    voltageLevels: z._default(z.array(z.string().check(z.minLength(1))), []),
    /** Annual consumption range in MWh. */
    consumptionMin: z._default(z.number().check(z.gte(0)), 0),
    consumptionMax: z.optional(z.number().check(z.positive())),
    /** GB/T 4754 section codes (industries.yaml). */
    industries: z._default(z.array(z.string().check(z.regex(/^[A-T]$/, 'must be a GB/T 4754 section letter A–T'))), []),
  })
  .check(
    z.refine((f) => f.consumptionMax === undefined || f.consumptionMax > f.consumptionMin, {
      message: 'consumptionMax must be greater than consumptionMin',
      path: ['consumptionMax'],
    }),
  );
export type SetFilter = z.output<typeof setFilterSchema>;

export const sellingSetSchema = z
  .strictObject({
    /** Unique across all content; orders refer to it (`/handle/order?sellingSetId=…`). */
    sellingSetId: slugField,
    orgComId: slugField,
    validFrom: dateField,
    validTo: dateField,
  })
  .check(
    z.refine((s) => s.validTo >= s.validFrom, { message: 'validTo must not be before validFrom', path: ['validTo'] }),
  );

export const setFileSchema = z.strictObject({
  productId: z.enum(productIds),
  name: text(60),
  summary: text(200),
  description: markdownField,
  sort: z._default(z.number().check(z.int(), z.gte(0)), 0),
  /** Whether the set is on the shelf (可在线办理); offline sets are shown but cannot be ordered. */
  online: z.boolean(),
  schemeParams: z.array(schemeParamSchema).check(z.minLength(1)),
  filter: setFilterSchema,
  sellingSets: z._default(z.array(sellingSetSchema), []),
  translations: translationsOf({ name: translated(60), summary: translated(200), description: markdownField }),
});
export const setSchema = z.extend(z.omit(setFileSchema, { sellingSets: true }), {
  setId: slugField,
  areaCode: areaCodeField,
});
export type ProductSet = z.output<typeof setSchema>;
/** A selling set as loaded: its set and region attached. */
export type SellingSet = z.output<typeof sellingSetSchema> & { setId: string; areaCode: string };

// ---------------------------------------------------------------------------------------------
// Dictionaries and the industry list

export const dictionaryEntrySchema = z.strictObject({
  code: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1–32 letters, digits, _ or -')),
  name: text(40),
  sort: z._default(z.number().check(z.int(), z.gte(0)), 0),
  translations: translationsOf({ name: translated(40) }),
});
/** categoryCode → entries. `newsType` (≥ 1 entry) and `voltageLevel` are required. */
export const dictionariesFileSchema = z
  .record(
    z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/, 'must be a camelCase category code')),
    z.array(dictionaryEntrySchema).check(z.minLength(1)),
  )
  .check(
    z.refine((d) => 'newsType' in d, { message: 'the newsType dictionary is required' }),
    z.refine((d) => 'voltageLevel' in d, { message: 'the voltageLevel dictionary is required' }),
  );
export type DictionaryEntry = z.output<typeof dictionaryEntrySchema>;

export const industrySchema = z.strictObject({
  /** GB/T 4754-2017 section letter. */
  code: z.string().check(z.regex(/^[A-T]$/, 'must be a GB/T 4754 section letter A–T')),
  name: text(40),
  translations: translationsOf({ name: translated(40) }),
});
export const industriesFileSchema = z.array(industrySchema).check(z.minLength(1));
export type Industry = z.output<typeof industrySchema>;

// ---------------------------------------------------------------------------------------------
// News, help, problem guides, customer notices

export const newsFrontSchema = z.strictObject({
  newsTypeCode: z.string().check(z.minLength(1)),
  title: text(80),
  date: dateField,
  source: text(40),
  summary: text(300),
  /** Pinned items come first in their type's list. */
  pinned: z._default(z.boolean(), false),
  translations: translationsOf({
    title: translated(80),
    source: translated(40),
    summary: translated(300),
    body: markdownField,
  }),
});
export const newsSchema = z.extend(newsFrontSchema, { newsId: slugField, body: markdownField });
export type News = z.output<typeof newsSchema>;

export const helpSectionSchema = z.strictObject({
  /** The section's key (spec: helpCatalog items carry `key`). */
  key: slugField,
  title: text(32),
  sort: z.number().check(z.int(), z.gte(0)),
  /** Document ids (help/<documentId>.md) in display order. */
  documents: z.array(slugField).check(z.minLength(1)),
  translations: translationsOf({ title: translated(32) }),
});
export const helpCatalogueFileSchema = z.strictObject({ sections: z.array(helpSectionSchema).check(z.minLength(1)) });
export type HelpSection = z.output<typeof helpSectionSchema>;

export const helpDocumentFrontSchema = z.strictObject({
  title: text(60),
  updated: dateField,
  translations: translationsOf({ title: translated(60), content: markdownField }),
});
export const helpDocumentSchema = z.extend(helpDocumentFrontSchema, { documentId: slugField, content: markdownField });
export type HelpDocument = z.output<typeof helpDocumentSchema>;

export const problemGuideSchema = z.strictObject({
  problemGuideId: slugField,
  question: text(120),
  answer: markdownField,
  sort: z.number().check(z.int(), z.gte(0)),
  translations: translationsOf({ question: translated(120), answer: markdownField }),
});
export const problemGuidesFileSchema = z.array(problemGuideSchema).check(z.minLength(1));
export type ProblemGuide = z.output<typeof problemGuideSchema>;

export const customerNoticeFrontSchema = z.strictObject({
  title: text(80),
  date: dateField,
  source: text(40),
  translations: translationsOf({ title: translated(80), source: translated(40), content: markdownField }),
});
export const customerNoticeSchema = z.extend(customerNoticeFrontSchema, {
  noticeId: slugField,
  content: markdownField,
});
export type CustomerNotice = z.output<typeof customerNoticeSchema>;

/**
 * The documents a registration agrees to (docs/privacy.md): each is one file whose `version` an
 * editor raises when its meaning changes — signed-in users then agree to the new version again.
 */
export const legalDocumentIds = ['user-agreement', 'privacy-policy'] as const;
export type LegalDocumentId = (typeof legalDocumentIds)[number];

export const legalDocumentFrontSchema = z.strictObject({
  title: text(30),
  /** e.g. `1.0`, `2027.1`: what a consent records (consents.version holds 16 characters). */
  version: text(16),
  /** The day this version applies from: before it, nobody is asked to agree again. */
  effective: dateField,
  /** What changed from the version before, in a sentence or two (shown when asking to agree again). */
  changes: text(200),
  translations: translationsOf({ title: translated(30), changes: translated(200), content: markdownField }),
});
/** A loaded legal document (its whole schema is localized.ts's: the studio's editor need not carry it). */
export type LegalDocument = z.output<typeof legalDocumentFrontSchema> & {
  documentId: LegalDocumentId;
  content: string;
};

// ---------------------------------------------------------------------------------------------

/** Everything in `src/content`, loaded, validated, cross-checked and sorted for display. */
export interface SiteContent {
  /** Sorted by `sort`, then area code. */
  regions: Region[];
  /** Sorted by `sort`. */
  bizTypes: BizType[];
  /** Sorted by region, type, `sort`, id. */
  bizItems: BizItem[];
  /** Sorted by `sort` (id1…id5 normally). */
  products: Product[];
  orgComs: OrgCom[];
  /** Sorted by region, product, `sort`, id. */
  sets: ProductSet[];
  /** In their sets' order. */
  sellingSets: SellingSet[];
  /** Entries sorted by `sort`, then code. */
  dictionaries: Record<string, DictionaryEntry[]>;
  industries: Industry[];
  /** Newest first (date descending, then id). */
  news: News[];
  /** Sorted by `sort`. */
  helpSections: HelpSection[];
  helpDocuments: HelpDocument[];
  /** Sorted by `sort`. */
  problemGuides: ProblemGuide[];
  /** Newest first. */
  customerNotices: CustomerNotice[];
  /** In `legalDocumentIds` order: both are always there. */
  legalDocuments: LegalDocument[];
}

/** The collection names, as registered with Astro (content.config.ts). */
export const collectionNames = [
  'regions',
  'bizTypes',
  'bizItems',
  'products',
  'orgComs',
  'sets',
  'sellingSets',
  'industries',
  'news',
  'helpSections',
  'helpDocuments',
  'problemGuides',
  'customerNotices',
  'legalDocuments',
] as const satisfies readonly (keyof SiteContent)[];
