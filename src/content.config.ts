/**
 * The content collections as Astro's content layer sees them. The content is the database's (the
 * editors' studio): a build is given a snapshot of it as content files in CONTENT_DIR (written by
 * src/server/site/rebuild.ts; `npm run build` reads the seed, src/content). Each loader delegates
 * to `src/content/load.ts`, which has already validated every file with `src/content/schemas.ts`
 * (a bad field fails the build naming the file) and checked the references between files, so
 * the collections carry no second schema. Pages normally read through `src/content/query.ts`;
 * the collections let `getCollection()` and Astro's tooling see the same entries.
 */
import { defineCollection } from 'astro:content';
import { loadContentOnce } from './content/load.ts';
import type { SiteContent } from './content/schemas.ts';

type Entry = { id: string } & Record<string, unknown>;
type ListKey = { [K in keyof SiteContent]: SiteContent[K] extends readonly unknown[] ? K : never }[keyof SiteContent];
type ItemOf<K extends ListKey> = SiteContent[K] extends readonly (infer E)[] ? E : never;

/** A collection of one array of the loaded content, keyed by each entry's own id field. */
function collectionOf<K extends ListKey>(key: K, idOf: (entry: ItemOf<K>) => string) {
  return defineCollection({
    loader: (): Entry[] =>
      (loadContentOnce()[key] as ItemOf<K>[]).map((entry) => ({ ...(entry as object), id: idOf(entry) })),
  });
}

export const collections = {
  regions: collectionOf('regions', (r) => r.areaCode),
  bizTypes: collectionOf('bizTypes', (t) => t.bizTypeId),
  bizItems: collectionOf('bizItems', (i) => i.bizItemId),
  products: collectionOf('products', (p) => p.productId),
  orgComs: collectionOf('orgComs', (o) => o.orgComId),
  sets: collectionOf('sets', (s) => s.setId),
  sellingSets: collectionOf('sellingSets', (s) => s.sellingSetId),
  industries: collectionOf('industries', (i) => i.code),
  news: collectionOf('news', (n) => n.newsId),
  helpSections: collectionOf('helpSections', (s) => s.key),
  helpDocuments: collectionOf('helpDocuments', (d) => d.documentId),
  problemGuides: collectionOf('problemGuides', (g) => g.problemGuideId),
  customerNotices: collectionOf('customerNotices', (n) => n.noticeId),
  legalDocuments: collectionOf('legalDocuments', (d) => d.documentId),
  dictionaries: defineCollection({
    loader: (): Entry[] =>
      Object.entries(loadContentOnce().dictionaries).map(([categoryCode, entries]) => ({
        id: categoryCode,
        categoryCode,
        entries,
      })),
  }),
};
