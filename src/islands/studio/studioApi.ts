/**
 * The studio's calls (/api/studio, docs/editing-content.md) and the shapes they answer, for the
 * islands. Every call goes through the project's request client: reads show the client's own
 * toast on a refusal and resolve undefined; writes are `quiet` so the island can put the
 * server's verdict (field errors, a conflict) where it belongs.
 */
import { get, post, upload, type ApiEnvelope, type UploadProgress } from '../../lib/api/index.ts';
import type { ContentKind } from '../../content/paths.ts';
import type { RenderedMarkdown } from '../../content/markdown.ts';
import type { Choices } from '../../content/references.ts';
import type { BuildPhase, ItemSummary, ItemView, RegionView } from '../../lib/studio/views.ts';

export type { BuildPhase, ItemState, ItemSummary, ItemView, RegionView } from '../../lib/studio/views.ts';
export type { DroppedItem, RenderedMarkdown } from '../../content/markdown.ts';

export const STUDIO_API = '/api/studio';

export interface BuildView {
  buildId: number;
  purpose: 'publish' | 'preview';
  status: 'running' | 'succeeded' | 'failed';
  phase: BuildPhase | null;
  progressDone: number | null;
  progressTotal: number | null;
  /** Every page, only the pages its changes touch, or the site as first served. */
  mode: 'full' | 'incremental' | 'initial';
  startedAt: string;
  finishedAt: string | null;
  startedBy: string | null;
  error: string | null;
  publishedAt: string | null;
  paths: string[];
  previewUrl: string | null;
}

export interface Overview {
  regions: RegionView[];
  kinds: Partial<Record<ContentKind, { items: number; drafts: number }>>;
  drafts: number;
  published: { buildId: number; publishedAt: string } | null;
  running: BuildView | null;
}

export interface VersionSummary {
  version: number;
  publishedAt: string;
  publishedBy: string | null;
  buildId: number | null;
  deleted: boolean;
}

export interface PublicationView extends BuildView {
  items: { path: string; title: string; version: number }[];
  kept: boolean;
}

export interface ImageUpload {
  name: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
}

/** Where an image is used: an item whose published data, draft or a kept earlier publication refers to it. */
export interface ImageUse {
  path: string;
  kind: ContentKind;
  title: string;
  /** `published`: on the site now; `draft`: in its pending draft; `kept`: in an earlier publication the site can be rolled back to. */
  in: ('published' | 'draft' | 'kept')[];
}

/** An uploaded image in the media library. */
export interface LibraryImage extends ImageUpload {
  fileName: string;
  createdAt: string;
  uploadedBy: string | null;
  /** The converted web image exists (it is what `url` serves). */
  converted: boolean;
  usedBy: ImageUse[];
}

/** The detail of a 400 `studio.contentInvalid`: which item and field failed the build's checks. */
export interface ContentInvalid {
  path: string;
  field: string;
  message: string;
}

export const loadOverview = () => get<Overview>(`${STUDIO_API}/overview`);
export const loadItems = (kind: ContentKind) => get<{ items: ItemSummary[] }>(`${STUDIO_API}/items`, { kind });
export const loadDrafts = () => get<{ items: ItemSummary[] }>(`${STUDIO_API}/drafts`);
export const loadItem = (path: string) => get<ItemView>(`${STUDIO_API}/item`, { path }, { quiet: true });
export const loadVersions = (path: string) => get<{ versions: VersionSummary[] }>(`${STUDIO_API}/versions`, { path });
export const loadVersion = (path: string, version: number) =>
  get<{ version: number; data: unknown }>(`${STUDIO_API}/version`, { path, version });
export const loadBuild = (buildId: number) => get<BuildView>(`${STUDIO_API}/build`, { buildId }, { quiet: true });
export const loadChoices = () => get<{ choices: Choices }>(`${STUDIO_API}/choices`);
export const loadPublications = () =>
  get<{ published: number | null; builds: PublicationView[] }>(`${STUDIO_API}/publications`);

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
  write<BuildView>(purpose, paths ? { paths: [...paths] } : {});
export const rollback = (buildId: number) => write<BuildView>('rollback', { buildId });

/** A Markdown field rendered by the site's renderer, with what it removed; aborting it is silent. */
export const renderMarkdownPreview = (markdown: string, signal: AbortSignal) =>
  post<RenderedMarkdown>(`${STUDIO_API}/markdown`, { markdown }, { json: true, quiet: true, signal });

export const loadImages = () => get<{ images: LibraryImage[] }>(`${STUDIO_API}/images`);
/** Deletes an unused image; 409 (with `usedBy`) while an item still refers to it. */
export const deleteImage = (name: string) => write<null>('image/delete', { name });

export function uploadImage(file: File, onProgress: (progress: UploadProgress) => void) {
  return upload<ImageUpload>(`${STUDIO_API}/image`, { file }, { quiet: true, onProgress });
}

/** The `{path, field, message}` of a contentInvalid answer, when it carries one. */
export function contentInvalidOf(answer: ApiEnvelope<unknown>): ContentInvalid | undefined {
  const data = answer.data as Partial<ContentInvalid> | null;
  return data && typeof data.path === 'string' && typeof data.message === 'string'
    ? { path: data.path, field: typeof data.field === 'string' ? data.field : '', message: data.message }
    : undefined;
}
