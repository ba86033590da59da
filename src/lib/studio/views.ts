/**
 * What the editors' studio calls answer about items (docs/editing-content.md): one definition for
 * the server that writes them (src/server/studio/views.ts) and the islands that read them.
 */
import type { ContentKind } from '../../content/paths.ts';

/** An item as the public site and its draft make it: on the site as is, changed, new, or to be removed. */
export type ItemState = 'published' | 'changed' | 'new' | 'deleted';

export interface ItemSummary {
  path: string;
  kind: ContentKind;
  id: string | null;
  areaCode: string | null;
  title: string;
  state: ItemState;
  publishedVersion: number;
  revision: number;
  draftAt: string | null;
  /** The name of the editor who saved the draft. */
  draftBy: string | null;
  /** When the version on the site was published, and by whom (null: the seed or an import by the system). */
  publishedAt: string | null;
  publishedBy: string | null;
}

export interface ItemView extends ItemSummary {
  published: unknown;
  draft: unknown;
  draftDeleted: boolean;
}

export interface RegionView {
  areaCode: string;
  name: string;
  /** '' for the default region, `/gx` etc. */
  prefix: string;
}

/** What a build is doing now (declared with the build answers). */
export type { BuildPhase } from './answers.ts';
