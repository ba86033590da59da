/**
 * Reads every content file (layout: the top of schemas.ts), validates it with its schema, renders
 * its Markdown to sanitized HTML (markdown.ts), checks the references between files, and returns
 * the content sorted for display.
 * Pure Node (fs + yaml + the renderer, no Astro import): the build, the API server and the tests use it
 * alike. Any problem throws a `ContentError` naming the file and the field, so a bad edit fails the
 * build (and a rebuild keeps the old site) with a message the editor can act on.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
// Classic zod here (build only): its English messages name what is wrong in a content file.
import { z } from 'zod';
import {
  bizItemFileSchema,
  bizTypesFileSchema,
  customerNoticeFrontSchema,
  dictionariesFileSchema,
  helpCatalogueFileSchema,
  helpDocumentFrontSchema,
  industriesFileSchema,
  legalDocumentFrontSchema,
  legalDocumentIds,
  mapMarkdownFields,
  markdownField,
  newsFrontSchema,
  orgComsFileSchema,
  problemGuidesFileSchema,
  productsFileSchema,
  regionFileSchema,
  setFileSchema,
  type BizItem,
  type CustomerNotice,
  type HelpDocument,
  type LegalDocument,
  type News,
  type ProductSet,
  type Region,
  type SellingSet,
  type SiteContent,
} from './schemas.ts';
import { slugPattern } from './paths.ts';
import { tagSource, trackReads } from './dependencies.ts';
import { localizeSiteContent } from './localized.ts';
import { renderMarkdown, UnrenderableMarkdown } from './markdown.ts';
import { graphRecorder } from './pageGraph.ts';

/** The content directory: CONTENT_DIR (a rebuild's snapshot) or `src/content` of the working directory. */
export function defaultContentDir(): string {
  return path.resolve(process.env['CONTENT_DIR'] ?? 'src/content');
}

/** A content file that cannot be used; `file` is relative to the content directory's parent. */
export class ContentError extends Error {
  readonly file: string;
  readonly field: string;

  constructor(file: string, field: string, problem: string) {
    super(field ? `${file}: ${field}: ${problem}` : `${file}: ${problem}`);
    this.name = 'ContentError';
    this.file = file;
    this.field = field;
  }
}

/** `descList[0].desc` from a zod issue path. */
function fieldPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

class Reader {
  readonly root: string;
  private readonly label: string;

  constructor(dir: string) {
    this.root = path.resolve(dir);
    // Errors name files as an editor sees them: relative to the working directory when inside it.
    const relative = path.relative(process.cwd(), this.root);
    this.label = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : this.root;
  }

  name(relativeFile: string): string {
    return path.join(this.label, relativeFile).split(path.sep).join('/');
  }

  fail(relativeFile: string, field: string, problem: string): never {
    throw new ContentError(this.name(relativeFile), field, problem);
  }

  exists(relative: string): boolean {
    return existsSync(path.join(this.root, relative));
  }

  /** Files directly in a folder with one of the extensions, sorted; [] when the folder is missing. */
  list(folder: string, extension: string): string[] {
    const dir = path.join(this.root, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter(
        (entry) => entry.endsWith(extension) && !entry.startsWith('.') && statSync(path.join(dir, entry)).isFile(),
      )
      .sort();
  }

  /** Sub-folders of a folder, sorted. */
  folders(folder: string): string[] {
    const dir = path.join(this.root, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((entry) => !entry.startsWith('.') && statSync(path.join(dir, entry)).isDirectory())
      .sort();
  }

  read(relativeFile: string): string {
    try {
      return readFileSync(path.join(this.root, relativeFile), 'utf8');
    } catch (error) {
      return this.fail(relativeFile, '', `cannot be read (${(error as Error).message})`);
    }
  }

  yaml(relativeFile: string, source = this.read(relativeFile)): unknown {
    try {
      // YAML 1.2 core schema: dates stay strings, as the schemas expect.
      return parseYaml(source, { prettyErrors: true, uniqueKeys: true });
    } catch (error) {
      return this.fail(relativeFile, '', `is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  /** A Markdown file: its YAML front matter and its body. */
  markdown(relativeFile: string): { front: unknown; body: string } {
    const source = this.read(relativeFile).replace(/^\uFEFF/, '');
    const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
    if (!match) return this.fail(relativeFile, '', 'must start with YAML front matter between --- lines');
    return { front: this.yaml(relativeFile, match[1] ?? ''), body: match[2] ?? '' };
  }

  /** The value checked by its schema, with every Markdown field in it rendered to sanitized HTML. */
  parse<S extends z.core.$ZodType>(relativeFile: string, schema: S, value: unknown, prefix = ''): z.output<S> {
    const result = z.safeParse(schema, value);
    if (result.success) {
      return mapMarkdownFields(schema, result.data, (source, at) => {
        try {
          return renderMarkdown(source).html;
        } catch (error) {
          if (!(error instanceof UnrenderableMarkdown)) throw error;
          return this.fail(relativeFile, [prefix, fieldPath(at)].filter(Boolean).join('.') || '(file)', error.message);
        }
      }) as z.output<S>;
    }
    const issue = result.error.issues[0];
    const field = [prefix, fieldPath(issue?.path ?? [])].filter(Boolean).join('.');
    return this.fail(relativeFile, field || '(file)', issue?.message ?? 'is invalid');
  }

  /** The slug of a file name (`news/abc.md` → `abc`); a bad name fails naming the file. */
  slugOf(relativeFile: string, extension: string): string {
    const slug = path.basename(relativeFile, extension);
    if (!slugPattern.test(slug)) this.fail(relativeFile, '(file name)', 'must be a lower-case slug (a-z, 0-9, -)');
    return slug;
  }
}

/** Keeps the first file that used each id, to name both files when an id repeats. */
class IdRegistry {
  private readonly seen = new Map<string, string>();
  private readonly reader: Reader;
  private readonly what: string;

  constructor(reader: Reader, what: string) {
    this.reader = reader;
    this.what = what;
  }

  add(id: string, relativeFile: string, field: string): void {
    const first = this.seen.get(id);
    if (first !== undefined)
      this.reader.fail(relativeFile, field, `${this.what} "${id}" is already used in ${this.reader.name(first)}`);
    this.seen.set(id, relativeFile);
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }
}

const bySort = <T extends { sort: number }>(a: T, b: T): number => a.sort - b.sort;

function loadRegions(reader: Reader): { regions: Region[]; files: Map<string, string> } {
  const files = new Map<string, string>();
  const regions = reader.list('regions', '.yaml').map((entry) => {
    const file = `regions/${entry}`;
    const areaCode = path.basename(entry, '.yaml');
    if (!/^\d{6}$/.test(areaCode)) reader.fail(file, '(file name)', 'must be a six-digit GB/T 2260 area code');
    files.set(areaCode, file);
    return tagSource({ areaCode, ...reader.parse(file, regionFileSchema, reader.yaml(file)) }, file);
  });
  if (regions.length === 0) reader.fail('regions', '', 'holds no region file (regions/<areaCode>.yaml)');
  regions.sort((a, b) => a.sort - b.sort || a.areaCode.localeCompare(b.areaCode));
  return { regions, files };
}

function requireFile(reader: Reader, relative: string): void {
  if (!reader.exists(relative)) reader.fail(relative, '', 'is missing');
}

/** Loads, validates and cross-checks the content of `dir`; throws ContentError on the first problem. */
export function loadContent(dir: string = defaultContentDir()): SiteContent {
  // Annotated so that `reader.fail(…)` (returning never) narrows like a throw.
  const reader: Reader = new Reader(dir);
  if (!existsSync(reader.root)) throw new ContentError(reader.name(''), '', 'content directory does not exist');

  const { regions, files: regionFiles } = loadRegions(reader);
  const areaCodes = new Set(regions.map((region) => region.areaCode));

  for (const required of [
    'business-types.yaml',
    'products.yaml',
    'org-coms.yaml',
    'dictionaries.yaml',
    'industries.yaml',
    'problem-guides.yaml',
    'help/catalogue.yaml',
  ]) {
    requireFile(reader, required);
  }

  const bizTypes = reader
    .parse('business-types.yaml', bizTypesFileSchema, reader.yaml('business-types.yaml'))
    .sort(bySort);
  const bizTypeIds = new IdRegistry(reader, 'bizTypeId');
  bizTypes.forEach((type, index) => bizTypeIds.add(type.bizTypeId, 'business-types.yaml', `[${index}].bizTypeId`));

  const products = reader.parse('products.yaml', productsFileSchema, reader.yaml('products.yaml')).sort(bySort);
  const productIds = new IdRegistry(reader, 'productId');
  products.forEach((product, index) => productIds.add(product.productId, 'products.yaml', `[${index}].productId`));

  const orgComs = reader.parse('org-coms.yaml', orgComsFileSchema, reader.yaml('org-coms.yaml'));
  const orgComIds = new IdRegistry(reader, 'orgComId');
  orgComs.forEach((orgCom, index) => {
    orgComIds.add(orgCom.orgComId, 'org-coms.yaml', `[${index}].orgComId`);
    orgCom.areaCodes.forEach((code, i) => {
      if (!areaCodes.has(code)) reader.fail('org-coms.yaml', `[${index}].areaCodes[${i}]`, `unknown region "${code}"`);
    });
  });

  const rawDictionaries = reader.parse('dictionaries.yaml', dictionariesFileSchema, reader.yaml('dictionaries.yaml'));
  const dictionaries = Object.fromEntries(
    Object.entries(rawDictionaries).map(([category, entries]) => {
      const codes = new IdRegistry(reader, `${category} code`);
      entries.forEach((entry, index) => codes.add(entry.code, 'dictionaries.yaml', `${category}[${index}].code`));
      return [category, [...entries].sort((a, b) => a.sort - b.sort || a.code.localeCompare(b.code))];
    }),
  );
  const voltageCodes = new Set((dictionaries['voltageLevel'] ?? []).map((entry) => entry.code));
  const newsTypeCodes = new Set((dictionaries['newsType'] ?? []).map((entry) => entry.code));

  const industries = reader.parse('industries.yaml', industriesFileSchema, reader.yaml('industries.yaml'));
  const industryCodes = new IdRegistry(reader, 'industry code');
  industries.forEach((industry, index) => industryCodes.add(industry.code, 'industries.yaml', `[${index}].code`));

  // Region settings refer to business types and products.
  for (const region of regions) {
    const file = regionFiles.get(region.areaCode) ?? '';
    region.bizTypeIds.forEach((id, i) => {
      if (!bizTypeIds.has(id)) reader.fail(file, `bizTypeIds[${i}]`, `unknown business type "${id}"`);
    });
    const ids = [
      ...region.banners.map((b, i) => [b.bannerId, `banners[${i}].bannerId`] as const),
      ...region.textBanners.map((b, i) => [b.textBannerId, `textBanners[${i}].textBannerId`] as const),
      ...region.homeNotices.map((n, i) => [n.homeNoticeId, `homeNotices[${i}].homeNoticeId`] as const),
    ];
    const local = new IdRegistry(reader, 'id');
    for (const [id, field] of ids) local.add(id, file, field);
  }
  const isoCodes = new IdRegistry(reader, 'isoCode');
  for (const region of regions) isoCodes.add(region.isoCode, regionFiles.get(region.areaCode) ?? '', 'isoCode');

  // Sets and selling sets.
  const sets: ProductSet[] = [];
  const sellingSets: SellingSet[] = [];
  const setIds = new IdRegistry(reader, 'setId');
  const sellingSetIds = new IdRegistry(reader, 'sellingSetId');
  const schemeParamIds = new IdRegistry(reader, 'schemeParamId');
  const setFiles = new Map<string, string>();
  for (const areaCode of reader.folders('sets')) {
    if (!areaCodes.has(areaCode)) reader.fail(`sets/${areaCode}`, '(folder name)', `unknown region "${areaCode}"`);
    for (const entry of reader.list(`sets/${areaCode}`, '.yaml')) {
      const file = `sets/${areaCode}/${entry}`;
      const setId = reader.slugOf(file, '.yaml');
      setIds.add(setId, file, '(file name)');
      setFiles.set(setId, file);
      const { sellingSets: selling, ...set } = reader.parse(file, setFileSchema, reader.yaml(file));
      if (!productIds.has(set.productId)) reader.fail(file, 'productId', `unknown product "${set.productId}"`);
      set.schemeParams.forEach((param, i) => {
        schemeParamIds.add(param.schemeParamId, file, `schemeParams[${i}].schemeParamId`);
        param.voltageLevels.forEach((code, j) => {
          if (!voltageCodes.has(code))
            reader.fail(file, `schemeParams[${i}].voltageLevels[${j}]`, `unknown voltageLevel "${code}"`);
        });
      });
      set.filter.voltageLevels.forEach((code, j) => {
        if (!voltageCodes.has(code)) reader.fail(file, `filter.voltageLevels[${j}]`, `unknown voltageLevel "${code}"`);
      });
      set.filter.industries.forEach((code, j) => {
        if (!industryCodes.has(code)) reader.fail(file, `filter.industries[${j}]`, `unknown industry "${code}"`);
      });
      selling.forEach((s, i) => {
        sellingSetIds.add(s.sellingSetId, file, `sellingSets[${i}].sellingSetId`);
        const orgCom = orgComs.find((o) => o.orgComId === s.orgComId);
        if (!orgCom) reader.fail(file, `sellingSets[${i}].orgComId`, `unknown orgCom "${s.orgComId}"`);
        if (!orgCom.areaCodes.includes(areaCode)) {
          reader.fail(file, `sellingSets[${i}].orgComId`, `orgCom "${s.orgComId}" does not sell in ${areaCode}`);
        }
        sellingSets.push({ ...s, setId, areaCode });
      });
      sets.push(tagSource({ ...set, setId, areaCode }, file));
    }
  }
  const productOrder = new Map(products.map((product, index) => [product.productId, index]));
  sets.sort(
    (a, b) =>
      a.areaCode.localeCompare(b.areaCode) ||
      (productOrder.get(a.productId) ?? 0) - (productOrder.get(b.productId) ?? 0) ||
      a.sort - b.sort ||
      a.setId.localeCompare(b.setId),
  );
  const setOrder = new Map(sets.map((set, index) => [set.setId, index]));
  sellingSets.sort((a, b) => (setOrder.get(a.setId) ?? 0) - (setOrder.get(b.setId) ?? 0));

  // Business items.
  const bizItems: BizItem[] = [];
  const bizItemIds = new IdRegistry(reader, 'bizItemId');
  const descIds = new IdRegistry(reader, 'bizItemDescId');
  const itemProductIds = new IdRegistry(reader, 'bizItemProductId');
  for (const areaCode of reader.folders('business')) {
    if (!areaCodes.has(areaCode)) reader.fail(`business/${areaCode}`, '(folder name)', `unknown region "${areaCode}"`);
    for (const entry of reader.list(`business/${areaCode}`, '.yaml')) {
      const file = `business/${areaCode}/${entry}`;
      const bizItemId = reader.slugOf(file, '.yaml');
      bizItemIds.add(bizItemId, file, '(file name)');
      const item = reader.parse(file, bizItemFileSchema, reader.yaml(file));
      if (!bizTypeIds.has(item.bizTypeId)) reader.fail(file, 'bizTypeId', `unknown business type "${item.bizTypeId}"`);
      const tabs = new IdRegistry(reader, 'tabId');
      item.descList.forEach((desc, i) => {
        descIds.add(desc.bizItemDescId, file, `descList[${i}].bizItemDescId`);
        tabs.add(desc.tabId, file, `descList[${i}].tabId`);
      });
      item.bizItemProducts.forEach((related, i) => {
        itemProductIds.add(related.bizItemProductId, file, `bizItemProducts[${i}].bizItemProductId`);
        if (related.setId === undefined) return;
        const set = sets.find((s) => s.setId === related.setId);
        if (!set || set.areaCode !== areaCode || set.productId !== related.productId) {
          reader.fail(
            file,
            `bizItemProducts[${i}].setId`,
            `"${related.setId}" is not a set of ${related.productId} in ${areaCode}`,
          );
        }
      });
      bizItems.push(tagSource({ ...item, bizItemId, areaCode }, file));
    }
  }
  const typeOrder = new Map(bizTypes.map((type, index) => [type.bizTypeId, index]));
  bizItems.sort(
    (a, b) =>
      a.areaCode.localeCompare(b.areaCode) ||
      (typeOrder.get(a.bizTypeId) ?? 0) - (typeOrder.get(b.bizTypeId) ?? 0) ||
      a.sort - b.sort ||
      a.bizItemId.localeCompare(b.bizItemId),
  );

  // News.
  const news: News[] = reader.list('news', '.md').map((entry) => {
    const file = `news/${entry}`;
    const newsId = reader.slugOf(file, '.md');
    const { front, body } = reader.markdown(file);
    const meta = reader.parse(file, newsFrontSchema, front);
    if (!newsTypeCodes.has(meta.newsTypeCode))
      reader.fail(file, 'newsTypeCode', `unknown newsType "${meta.newsTypeCode}" (dictionaries.yaml)`);
    return tagSource({ ...meta, newsId, body: reader.parse(file, markdownField, body, '(body)') }, file);
  });
  news.sort((a, b) => b.date.localeCompare(a.date) || a.newsId.localeCompare(b.newsId));

  // Help.
  const helpDocuments: HelpDocument[] = reader.list('help', '.md').map((entry) => {
    const file = `help/${entry}`;
    const documentId = reader.slugOf(file, '.md');
    const { front, body } = reader.markdown(file);
    return tagSource(
      {
        ...reader.parse(file, helpDocumentFrontSchema, front),
        documentId,
        content: reader.parse(file, markdownField, body, '(body)'),
      },
      file,
    );
  });
  const helpSections = reader
    .parse('help/catalogue.yaml', helpCatalogueFileSchema, reader.yaml('help/catalogue.yaml'))
    .sections.sort(bySort);
  const sectionKeys = new IdRegistry(reader, 'key');
  const listed = new IdRegistry(reader, 'documentId');
  const documentIds = new Set(helpDocuments.map((doc) => doc.documentId));
  helpSections.forEach((section, i) => {
    sectionKeys.add(section.key, 'help/catalogue.yaml', `sections[${i}].key`);
    section.documents.forEach((id, j) => {
      const field = `sections[${i}].documents[${j}]`;
      if (!documentIds.has(id)) reader.fail('help/catalogue.yaml', field, `no help document help/${id}.md`);
      listed.add(id, 'help/catalogue.yaml', field);
    });
  });
  for (const doc of helpDocuments) {
    if (!listed.has(doc.documentId))
      reader.fail(`help/${doc.documentId}.md`, '', 'is not listed in help/catalogue.yaml');
  }

  // Problem guides.
  const problemGuides = reader
    .parse('problem-guides.yaml', problemGuidesFileSchema, reader.yaml('problem-guides.yaml'))
    .sort(bySort);
  const guideIds = new IdRegistry(reader, 'problemGuideId');
  problemGuides.forEach((guide, i) =>
    guideIds.add(guide.problemGuideId, 'problem-guides.yaml', `[${i}].problemGuideId`),
  );

  // Customer notices.
  const customerNotices: CustomerNotice[] = reader.list('notices', '.md').map((entry) => {
    const file = `notices/${entry}`;
    const noticeId = reader.slugOf(file, '.md');
    const { front, body } = reader.markdown(file);
    return tagSource(
      {
        ...reader.parse(file, customerNoticeFrontSchema, front),
        noticeId,
        content: reader.parse(file, markdownField, body, '(body)'),
      },
      file,
    );
  });
  customerNotices.sort((a, b) => b.date.localeCompare(a.date) || a.noticeId.localeCompare(b.noticeId));
  const noticeIds = new Set(customerNotices.map((notice) => notice.noticeId));
  for (const region of regions) {
    region.homeNotices.forEach((notice, i) => {
      if (notice.noticeId !== undefined && !noticeIds.has(notice.noticeId)) {
        reader.fail(
          regionFiles.get(region.areaCode) ?? '',
          `homeNotices[${i}].noticeId`,
          `no customer notice notices/${notice.noticeId}.md`,
        );
      }
    });
  }

  // The user agreement and the privacy policy: both, always (a registration agrees to them).
  const legalDocuments: LegalDocument[] = [];
  for (const documentId of legalDocumentIds) {
    const file = `legal/${documentId}.md`;
    if (!reader.list('legal', '.md').includes(`${documentId}.md`))
      reader.fail(file, '', 'is missing: registration agrees to both legal documents');
    const { front, body } = reader.markdown(file);
    legalDocuments.push(
      tagSource(
        {
          ...reader.parse(file, legalDocumentFrontSchema, front),
          documentId,
          content: reader.parse(file, markdownField, body, '(body)'),
        },
        file,
      ),
    );
  }

  for (const entry of reader.list('legal', '.md')) {
    if (!(legalDocumentIds as readonly string[]).includes(entry.replace(/\.md$/, '')))
      reader.fail(`legal/${entry}`, '(file name)', `is not a legal document (${legalDocumentIds.join(', ')})`);
  }

  return {
    regions,
    bizTypes,
    bizItems,
    products,
    orgComs,
    sets,
    sellingSets,
    dictionaries,
    industries,
    news,
    helpSections,
    helpDocuments,
    problemGuides,
    customerNotices,
    legalDocuments,
  };
}

const cache = new Map<string, SiteContent>();
const tracked = new WeakMap<SiteContent, SiteContent>();

/**
 * The content of `dir`, loaded once per process: for the static build, where every page asks for
 * it. The API server holds its own copy in its content store, replaced after a rebuild. During a
 * build that records its page graph (pageGraph.ts), what each page reads is recorded.
 */
export function loadContentOnce(dir: string = defaultContentDir()): SiteContent {
  const key = path.resolve(dir);
  let content = cache.get(key);
  if (!content) {
    content = loadContent(key);
    cache.set(key, content);
  }
  return recordedReads(content);
}

/** The content of `dir` in `locale` (localized.ts), loaded and localized once per process, its reads recorded like `loadContentOnce`'s. */
export function loadLocalizedContentOnce(locale: string, dir: string = defaultContentDir()): SiteContent {
  loadContentOnce(dir);
  return recordedReads(localizeSiteContent(cache.get(path.resolve(dir))!, locale));
}

function recordedReads(content: SiteContent): SiteContent {
  const recorder = graphRecorder();
  if (!recorder) return content;
  let seen = tracked.get(content);
  if (!seen) {
    const record = (read: string) => recorder.current?.add(read);
    seen = trackReads(content, () => (recorder.current ? record : undefined));
    tracked.set(content, seen);
  }
  return seen;
}
