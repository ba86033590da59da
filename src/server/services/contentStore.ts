/**
 * The content the API answers from: one loaded `SiteContent`, replaced whole. Content calls read
 * `contentStore.current()` once per request and work on that snapshot, so a request never mixes
 * old and new content even if a rebuild swaps it meanwhile. The first read loads CONTENT_DIR
 * (`src/content` by default); the server loads it at start (`publishContent`) so that a broken
 * content directory stops the start instead of the first request.
 */
import { loadContent } from '../../content/load.ts';
import { localizeSiteContent } from '../../content/localized.ts';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import { syncRegions } from './regionSync.ts';

export interface ContentStore {
  /** The content now published (loaded on first use), as written: in zh-CN, with its translations. */
  current(): SiteContent;
  /** The content now published in `locale` (content/localized.ts): what a call answers a visitor with. */
  localized(locale: string): SiteContent;
  /** Publishes new content at once: every request that starts afterwards sees it. */
  replace(content: SiteContent): void;
  /** Increases with every replace; 0 before anything was loaded. */
  version(): number;
}

export function createContentStore(load: () => SiteContent = () => loadContent()): ContentStore {
  let content: SiteContent | undefined;
  let version = 0;
  return {
    current() {
      if (!content) {
        content = load();
        version += 1;
      }
      return content;
    },
    localized(locale) {
      return localizeSiteContent(this.current(), locale);
    },
    replace(next) {
      content = next;
      version += 1;
    },
    version: () => version,
  };
}

/** The process's content store, shared by every content route and the rebuild. */
export const contentStore: ContentStore = createContentStore();

/**
 * Publishes content to the API: first the regions table (getProvinceList / setProvince read it),
 * then the store, so that a region added by an edit can be chosen as soon as its pages answer.
 * A database failure leaves the store on the old content.
 */
export async function publishContent(
  db: Database,
  content: SiteContent,
  store: ContentStore = contentStore,
): Promise<void> {
  await syncRegions(db, content);
  store.replace(content);
}
