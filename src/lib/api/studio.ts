/**
 * The studio's calls (/api/studio, docs/editing-content.md), for the islands. The answers' types
 * are the server's own (src/lib/studio/answers.ts and views.ts, imported as types: no bytes in the
 * browser), so no island declares one. Every call goes through the project's request client: reads
 * show the client's own toast on a refusal and resolve undefined; writes are `quiet` so the island
 * can put the server's verdict (field errors, a conflict) where it belongs.
 */
import { get, post, upload, type ApiEnvelope, type UploadProgress } from './index.ts';
import type { ContentKind } from '../../content/paths.ts';
import type { RenderedMarkdown } from '../../content/markdown.ts';
import type { Choices } from '../../content/references.ts';
import type { ItemSummary, ItemView } from '../studio/views.ts';
import type {
  ContentImportResult,
  ContentProblem,
  ImageView,
  LibraryImage,
  Overview,
  Publications,
  StudioBuildView,
  VersionSummary,
} from '../studio/answers.ts';

export type { BuildPhase, ItemState, ItemSummary, ItemView, RegionView } from '../studio/views.ts';
export type {
  ContentImportResult,
  ContentProblem,
  ImageUse,
  ImageView,
  LibraryImage,
  Overview,
  PublicationView,
  StudioBuildView,
  VersionSummary,
} from '../studio/answers.ts';
export type { DroppedItem, RenderedMarkdown } from '../../content/markdown.ts';

export const STUDIO_API = '/api/studio';

export const loadOverview = () => get<Overview>(`${STUDIO_API}/overview`);
export const loadItems = (kind: ContentKind) => get<{ items: ItemSummary[] }>(`${STUDIO_API}/items`, { kind });
export const loadDrafts = () => get<{ items: ItemSummary[] }>(`${STUDIO_API}/drafts`);
export const loadItem = (path: string) => get<ItemView>(`${STUDIO_API}/item`, { path }, { quiet: true });
export const loadVersions = (path: string) => get<{ versions: VersionSummary[] }>(`${STUDIO_API}/versions`, { path });
export const loadVersion = (path: string, version: number) =>
  get<{ version: number; data: unknown }>(`${STUDIO_API}/version`, { path, version });
export const loadBuild = (buildId: number) => get<StudioBuildView>(`${STUDIO_API}/build`, { buildId }, { quiet: true });
export const loadChoices = () => get<{ choices: Choices }>(`${STUDIO_API}/choices`);
export const loadPublications = () => get<Publications>(`${STUDIO_API}/publications`);

const write = <T>(call: string, body: Record<string, unknown>): Promise<ApiEnvelope<T> | undefined> =>
  post<T>(`${STUDIO_API}/${call}`, body, { json: true, quiet: true });

export const saveItem = (path: string, data: unknown, revision: number) =>
  write<ItemView>('item', { path, data, revision });
export const discardItem = (path: string) => write<ItemView | null>('item/discard', { path });
export const deleteItem = (path: string, revision: number) => write<ItemView | null>('item/delete', { path, revision });
export const restoreItem = (path: string, version: number, revision: number) =>
  write<ItemView>('item/restore', { path, version, revision });
/** Preview or publish the chosen drafts (all when `paths` is undefined). */
export const startBuild = (purpose: 'preview' | 'publish', paths?: readonly string[]) =>
  write<StudioBuildView>(purpose, paths ? { paths: [...paths] } : {});
export const rollback = (buildId: number) => write<StudioBuildView>('rollback', { buildId });

/** A Markdown field rendered by the site's renderer, with what it removed; aborting it is silent. */
export const renderMarkdownPreview = (markdown: string, signal: AbortSignal) =>
  post<RenderedMarkdown>(`${STUDIO_API}/markdown`, { markdown }, { json: true, quiet: true, signal });

export const loadImages = () => get<{ images: LibraryImage[] }>(`${STUDIO_API}/images`);
/** Deletes an unused image; 409 (with `usedBy`) while an item still refers to it. */
export const deleteImage = (name: string) => write<null>('image/delete', { name });

export function uploadImage(file: File, onProgress: (progress: UploadProgress) => void) {
  return upload<ImageView>(`${STUDIO_API}/image`, { file }, { quiet: true, onProgress });
}

/** Imports a content package (.zip): every changed file becomes a draft; quiet: the form shows the verdict. */
export const importContent = (file: File) =>
  upload<ContentImportResult>(`${STUDIO_API}/import`, { file }, { quiet: true });

/** The `{path, field, message}` of a contentInvalid answer, when it carries one. */
export function contentInvalidOf(answer: ApiEnvelope<unknown>): ContentProblem | undefined {
  const data = answer.data as Partial<ContentProblem> | null;
  return data && typeof data.path === 'string' && typeof data.message === 'string'
    ? { path: data.path, field: typeof data.field === 'string' ? data.field : '', message: data.message }
    : undefined;
}
