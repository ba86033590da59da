/**
 * The kinds of content an editor changes, one per file shape of `src/content` (the layout at the
 * top of schemas.ts): where an item's file lives, the schema its data must pass (the very schema
 * the build loads it with), how it is written as a file, and which public page shows it.
 *
 * An item's identity is its file path (`news/<newsId>.md`, `sets/450000/<setId>.yaml`,
 * `business-types.yaml`): the database keeps one row per path (the editors' studio), the build
 * reads the same paths (the snapshot a build is made from), and import/export are those files.
 * Pure (no Node, no Astro): the server, the build and the studio's islands share it.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { z } from 'zod';
import {
  bizItemFileSchema,
  bizTypesFileSchema,
  customerNoticeFrontSchema,
  dictionariesFileSchema,
  helpCatalogueFileSchema,
  helpDocumentFrontSchema,
  industriesFileSchema,
  markdownField,
  newsFrontSchema,
  orgComsFileSchema,
  problemGuidesFileSchema,
  productsFileSchema,
  regionFileSchema,
  setFileSchema,
  slugPattern,
} from './schemas.ts';

export const contentKinds = [
  'region',
  'bizTypes',
  'bizItem',
  'products',
  'orgComs',
  'set',
  'dictionaries',
  'industries',
  'news',
  'helpCatalogue',
  'helpDocument',
  'problemGuides',
  'notice',
] as const;
export type ContentKind = (typeof contentKinds)[number];

/** The Markdown of a `.md` item is kept under this key of its data, beside the front matter's fields. */
export const markdownBodyKey = 'body';

/** What identifies an item within its kind: its own id (from the file name) and its region, where it has them. */
export interface ItemKey {
  /** The id the file name gives (newsId, setId, bizItemId, documentId, noticeId, or a region's areaCode). */
  id?: string | undefined;
  /** The region of a per-region item (bizItem, set). */
  areaCode?: string | undefined;
}

export interface KindSpec {
  kind: ContentKind;
  /** `yaml`: the file is the data; `markdown`: YAML front matter + the body under `body`. */
  format: 'yaml' | 'markdown';
  /** One file holds the whole list (business types, products, …): there is exactly one item. */
  single: boolean;
  /** Per region (the path names the region). */
  perRegion: boolean;
  /** The data an editor writes: the build's own schema (front matter + `body` for Markdown). */
  schema: z.ZodType;
  /** The file path of an item of this kind. */
  pathOf(key: ItemKey): string;
  /** Its key from a path, or undefined when the path is not of this kind. */
  keyOf(path: string): ItemKey | undefined;
}

const slug = '([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)';
const area = '(\\d{6})';

function single(kind: ContentKind, path: string, schema: z.ZodType): KindSpec {
  return {
    kind,
    format: 'yaml',
    single: true,
    perRegion: false,
    schema,
    pathOf: () => path,
    keyOf: (candidate) => (candidate === path ? {} : undefined),
  };
}

function byId(kind: ContentKind, folder: string, extension: '.yaml' | '.md', schema: z.ZodType, idPattern = slug): KindSpec {
  const pattern = new RegExp(`^${folder}/${idPattern}\\${extension}$`);
  return {
    kind,
    format: extension === '.md' ? 'markdown' : 'yaml',
    single: false,
    perRegion: false,
    schema,
    pathOf: ({ id }) => `${folder}/${id ?? ''}${extension}`,
    keyOf: (candidate) => {
      const match = pattern.exec(candidate);
      return match ? { id: match[1] } : undefined;
    },
  };
}

function byRegionAndId(kind: ContentKind, folder: string, schema: z.ZodType): KindSpec {
  const pattern = new RegExp(`^${folder}/${area}/${slug}\\.yaml$`);
  return {
    kind,
    format: 'yaml',
    single: false,
    perRegion: true,
    schema,
    pathOf: ({ id, areaCode }) => `${folder}/${areaCode ?? ''}/${id ?? ''}.yaml`,
    keyOf: (candidate) => {
      const match = pattern.exec(candidate);
      return match ? { areaCode: match[1], id: match[2] } : undefined;
    },
  };
}

const withBody = <S extends z.ZodObject>(front: S) => front.extend({ [markdownBodyKey]: markdownField });

export const kindSpecs: Readonly<Record<ContentKind, KindSpec>> = {
  region: byId('region', 'regions', '.yaml', regionFileSchema, area),
  bizTypes: single('bizTypes', 'business-types.yaml', bizTypesFileSchema),
  bizItem: byRegionAndId('bizItem', 'business', bizItemFileSchema),
  products: single('products', 'products.yaml', productsFileSchema),
  orgComs: single('orgComs', 'org-coms.yaml', orgComsFileSchema),
  set: byRegionAndId('set', 'sets', setFileSchema),
  dictionaries: single('dictionaries', 'dictionaries.yaml', dictionariesFileSchema),
  industries: single('industries', 'industries.yaml', industriesFileSchema),
  news: byId('news', 'news', '.md', withBody(newsFrontSchema)),
  helpCatalogue: single('helpCatalogue', 'help/catalogue.yaml', helpCatalogueFileSchema),
  helpDocument: byId('helpDocument', 'help', '.md', withBody(helpDocumentFrontSchema)),
  problemGuides: single('problemGuides', 'problem-guides.yaml', problemGuidesFileSchema),
  notice: byId('notice', 'notices', '.md', withBody(customerNoticeFrontSchema)),
};

export function isContentKind(value: unknown): value is ContentKind {
  return typeof value === 'string' && (contentKinds as readonly string[]).includes(value);
}

/** The kind and key of a content path; undefined for a path that is no item's. */
export function kindOfPath(path: string): { kind: ContentKind; key: ItemKey } | undefined {
  for (const kind of contentKinds) {
    const key = kindSpecs[kind].keyOf(path);
    if (key) return { kind, key };
  }
  return undefined;
}

/** Whether `id` can name a file (lower-case slug). */
export function isItemId(id: string): boolean {
  return slugPattern.test(id);
}

// ---------------------------------------------------------------------------------------------
// Files: the import/export format (and the build's snapshot)

function yamlText(data: unknown): string {
  return stringifyYaml(data, { lineWidth: 0 });
}

/** The file text of an item's data. */
export function fileTextOf(kind: ContentKind, data: unknown): string {
  if (kindSpecs[kind].format === 'yaml') return yamlText(data);
  const { [markdownBodyKey]: body, ...front } = (data ?? {}) as Record<string, unknown>;
  return `---\n${yamlText(front)}---\n${typeof body === 'string' ? `${body.trimEnd()}\n` : ''}`;
}

/** An item's data from its file text; throws an Error saying why when the text cannot be read. */
export function dataOfFile(kind: ContentKind, text: string): unknown {
  const source = text.replace(/^\uFEFF/, '');
  // YAML 1.2 core schema: dates stay strings, as the schemas expect (load.ts reads the same way).
  const yaml = (value: string) => parseYaml(value, { uniqueKeys: true }) as unknown;
  if (kindSpecs[kind].format === 'yaml') return yaml(source);
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error('must start with YAML front matter between --- lines');
  const front = yaml(match[1] ?? '');
  if (front === null || typeof front !== 'object' || Array.isArray(front)) throw new Error('front matter must be a YAML mapping');
  return normalizedData(kind, { ...(front as Record<string, unknown>), [markdownBodyKey]: match[2] ?? '' });
}

/**
 * An item's data as it is kept: a Markdown body without trailing white space (the file adds one
 * line end), so the same text saved, exported and imported again is the same data.
 */
export function normalizedData(kind: ContentKind, data: unknown): unknown {
  if (kindSpecs[kind].format !== 'markdown' || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const body = (data as Record<string, unknown>)[markdownBodyKey];
  return typeof body === 'string' ? { ...(data as Record<string, unknown>), [markdownBodyKey]: body.trimEnd() } : data;
}

// ---------------------------------------------------------------------------------------------
// Display: what an editor reads in lists, and where the public site shows an item

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A short title for lists: the item's own title or name, else its id or path. */
export function titleOf(path: string, data: unknown): string {
  const record = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return text(record['title']) || text(record['name']) || kindOfPath(path)?.key.id || path;
}

/** Region path prefixes (`/gx`) by area code; the default region (Guangdong) has none. */
export type RegionPrefixes = Readonly<Record<string, string>>;

/**
 * The zh-CN public page that shows an item (what "preview" opens), as a site path. Per-region
 * items open in their region; lists open the page that lists them.
 */
export function pageOfItem(path: string, data: unknown, prefixes: RegionPrefixes): string {
  const found = kindOfPath(path);
  if (!found) return '/';
  const { kind, key } = found;
  const record = (data ?? {}) as Record<string, unknown>;
  const prefix = (areaCode: string | undefined) => (areaCode ? (prefixes[areaCode] ?? '') : '');
  switch (kind) {
    case 'region':
      return `${prefix(key.id)}/welcome/home`;
    case 'bizTypes':
      return '/business';
    case 'bizItem':
      return `${prefix(key.areaCode)}/business/${text(record['bizTypeId'])}/${key.id ?? ''}`;
    case 'products':
      return '/products';
    case 'set':
      return `${prefix(key.areaCode)}/products/${text(record['productId'])}/${key.id ?? ''}`;
    case 'news':
      return `/infomation/detail/${key.id ?? ''}`;
    case 'dictionaries':
      return '/infomation/list';
    case 'helpCatalogue':
      return '/assistance';
    case 'helpDocument':
      return `/assistance/${key.id ?? ''}`;
    case 'problemGuides':
      return '/assistance/faq';
    case 'notice':
      return `/welcome/detail/${key.id ?? ''}`;
    case 'orgComs':
    case 'industries':
      return '/products';
  }
}
