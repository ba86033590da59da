/**
 * Where each kind of content lives (the layout at the top of schemas.ts): an item's identity is
 * its file path (`news/<newsId>.md`, `sets/450000/<setId>.yaml`, `business-types.yaml`) — the
 * database keeps one row per path (the editors' studio), the build reads the same paths (the
 * snapshot a build is made from), and import/export are those files — plus the titles and public
 * pages of items. Paths only: no schema and no file format, so the studio's lists and
 * publications load no validation or YAML code (docs/performance.md). kinds.ts adds each kind's
 * schema, files.ts its file text. Pure (no Node, no Astro): the server, the build and the islands
 * share it.
 */

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
  'legal',
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

/** A kind's place in `src/content`. */
export interface KindPath {
  kind: ContentKind;
  /** `yaml`: the file is the data; `markdown`: YAML front matter + the body under `body`. */
  format: 'yaml' | 'markdown';
  /** One file holds the whole list (business types, products, …): there is exactly one item. */
  single: boolean;
  /** Per region (the path names the region). */
  perRegion: boolean;
  /** The file path of an item of this kind. */
  pathOf(key: ItemKey): string;
  /** Its key from a path, or undefined when the path is not of this kind. */
  keyOf(path: string): ItemKey | undefined;
}

/** A lower-case slug: what a file name's id may be (news, sets, help documents…). */
export const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

const slug = '([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)';
const area = '(\\d{6})';

function single(kind: ContentKind, path: string): KindPath {
  return {
    kind,
    format: 'yaml',
    single: true,
    perRegion: false,
    pathOf: () => path,
    keyOf: (candidate) => (candidate === path ? {} : undefined),
  };
}

function byId(kind: ContentKind, folder: string, extension: '.yaml' | '.md', idPattern = slug): KindPath {
  const pattern = new RegExp(`^${folder}/${idPattern}\\${extension}$`);
  return {
    kind,
    format: extension === '.md' ? 'markdown' : 'yaml',
    single: false,
    perRegion: false,
    pathOf: ({ id }) => `${folder}/${id ?? ''}${extension}`,
    keyOf: (candidate) => {
      const match = pattern.exec(candidate);
      return match ? { id: match[1] } : undefined;
    },
  };
}

function byRegionAndId(kind: ContentKind, folder: string): KindPath {
  const pattern = new RegExp(`^${folder}/${area}/${slug}\\.yaml$`);
  return {
    kind,
    format: 'yaml',
    single: false,
    perRegion: true,
    pathOf: ({ id, areaCode }) => `${folder}/${areaCode ?? ''}/${id ?? ''}.yaml`,
    keyOf: (candidate) => {
      const match = pattern.exec(candidate);
      return match ? { areaCode: match[1], id: match[2] } : undefined;
    },
  };
}

export const kindPaths: Readonly<Record<ContentKind, KindPath>> = {
  region: byId('region', 'regions', '.yaml', area),
  bizTypes: single('bizTypes', 'business-types.yaml'),
  bizItem: byRegionAndId('bizItem', 'business'),
  products: single('products', 'products.yaml'),
  orgComs: single('orgComs', 'org-coms.yaml'),
  set: byRegionAndId('set', 'sets'),
  dictionaries: single('dictionaries', 'dictionaries.yaml'),
  industries: single('industries', 'industries.yaml'),
  news: byId('news', 'news', '.md'),
  helpCatalogue: single('helpCatalogue', 'help/catalogue.yaml'),
  helpDocument: byId('helpDocument', 'help', '.md'),
  problemGuides: single('problemGuides', 'problem-guides.yaml'),
  notice: byId('notice', 'notices', '.md'),
  // Only legalDocumentIds load (load.ts refuses another file there, naming it).
  legal: byId('legal', 'legal', '.md'),
};

export function isContentKind(value: unknown): value is ContentKind {
  return typeof value === 'string' && (contentKinds as readonly string[]).includes(value);
}

/** The kind and key of a content path; undefined for a path that is no item's. */
export function kindOfPath(path: string): { kind: ContentKind; key: ItemKey } | undefined {
  for (const kind of contentKinds) {
    const key = kindPaths[kind].keyOf(path);
    if (key) return { kind, key };
  }
  return undefined;
}

/** Whether `id` can name a file (lower-case slug). */
export function isItemId(id: string): boolean {
  return slugPattern.test(id);
}

// ---------------------------------------------------------------------------------------------
// Display: what an editor reads in lists, and where the public site shows an item

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A short title for lists: the item's own title or name, else its id or path. */
export function titleOf(path: string, data: unknown): string {
  const record =
    data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
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
    case 'legal':
      return `/legal/${key.id ?? ''}`;
    case 'orgComs':
    case 'industries':
      return '/products';
  }
}
