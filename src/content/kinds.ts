/**
 * The kinds of content an editor changes, one per file shape of `src/content` (the layout at the
 * top of schemas.ts): each kind's place (paths.ts) with the schema its data must pass — the very
 * schema the build loads it with. How an item is written as a file is files.ts; which public page
 * shows it, paths.ts. Three modules so that a page needing one part loads neither the schemas nor
 * the YAML library (docs/performance.md). Pure (no Node, no Astro): the server, the build and the
 * studio's islands share them.
 */
import { z } from 'zod/mini';
import { contentKinds, kindPaths, markdownBodyKey, type ContentKind, type KindPath } from './paths.ts';
import {
  bizItemFileSchema,
  bizTypesFileSchema,
  customerNoticeFrontSchema,
  dictionariesFileSchema,
  helpCatalogueFileSchema,
  helpDocumentFrontSchema,
  industriesFileSchema,
  legalDocumentFrontSchema,
  markdownField,
  newsFrontSchema,
  orgComsFileSchema,
  problemGuidesFileSchema,
  productsFileSchema,
  regionFileSchema,
  setFileSchema,
} from './schemas.ts';

export interface KindSpec extends KindPath {
  /** The data an editor writes: the build's own schema (front matter + `body` for Markdown). */
  schema: z.ZodMiniType;
}

const withBody = <S extends z.ZodMiniObject>(front: S) => z.extend(front, { [markdownBodyKey]: markdownField });

const schemas: Readonly<Record<ContentKind, z.ZodMiniType>> = {
  region: regionFileSchema,
  bizTypes: bizTypesFileSchema,
  bizItem: bizItemFileSchema,
  products: productsFileSchema,
  orgComs: orgComsFileSchema,
  set: setFileSchema,
  dictionaries: dictionariesFileSchema,
  industries: industriesFileSchema,
  news: withBody(newsFrontSchema),
  helpCatalogue: helpCatalogueFileSchema,
  helpDocument: withBody(helpDocumentFrontSchema),
  problemGuides: problemGuidesFileSchema,
  notice: withBody(customerNoticeFrontSchema),
  legal: withBody(legalDocumentFrontSchema),
};

export const kindSpecs: Readonly<Record<ContentKind, KindSpec>> = Object.fromEntries(
  contentKinds.map((kind) => [kind, { ...kindPaths[kind], schema: schemas[kind] }]),
) as Record<ContentKind, KindSpec>;
