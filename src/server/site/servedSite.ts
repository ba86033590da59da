/**
 * The site this process serves, and where builds live on disk: which built directory the server
 * serves and which content directory the API answers from. The two always change together, so a
 * visitor's page and the content API never disagree.
 *
 * Editors' rebuilds (rebuild.ts) live under `DATA_DIR/site/`:
 *
 *   builds/<id>/content   the snapshot of the content the build read (CONTENT_DIR of the build)
 *   builds/<id>/dist      the build output
 *   current -> builds/<id>  symbolic link to the published build, replaced by an atomic rename
 *
 * Which build is published is the database's to say (sitePublisher.ts); `current` follows it on
 * each machine, for a static host pointed at `current/dist`. The running server switches in memory
 * (`PublishedSite.publish`).
 */
import { rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';

export interface SiteLayout {
  /** `DATA_DIR/site` */
  root: string;
  /** `DATA_DIR/site/builds` */
  buildsDir: string;
  /** `DATA_DIR/site/current` */
  currentLink: string;
  /** `DATA_DIR/site/builds/held`: where the build held ready writes (buildCommand.ts), moved into its build's directory after. */
  heldDir: string;
}

export function siteLayout(dataDir: string): SiteLayout {
  const root = path.join(path.resolve(dataDir), 'site');
  const buildsDir = path.join(root, 'builds');
  return { root, buildsDir, currentLink: path.join(root, 'current'), heldDir: path.join(buildsDir, 'held') };
}

/** A build's directory name: the `site_builds` id, zero-padded so that names sort by age. */
export function buildDirName(buildId: number): string {
  return String(buildId).padStart(6, '0');
}

export interface Publication {
  /** Absolute directory of the built pages. */
  staticDir: string;
  /** Absolute content directory the pages were built from. */
  contentDir: string;
  /** The `site_builds` id, or null for `npm run build`'s STATIC_DIR. */
  buildId: number | null;
}

/** Points `current` at a build directory: a new link renamed over the old one, so it is never missing. */
export async function pointCurrentAt(layout: SiteLayout, buildDir: string): Promise<void> {
  const temporary = `${layout.currentLink}.next-${process.pid}`;
  await rm(temporary, { force: true });
  await symlink(path.relative(layout.root, buildDir), temporary, 'dir');
  await rename(temporary, layout.currentLink);
}

/** The directory the server serves now, switched in memory at the moment of a publication. */
export interface PublishedSite {
  current(): Publication | undefined;
  /** The static directory of the current publication (read by the static handler per request). */
  staticDir(): string | undefined;
  publish(publication: Publication): void;
}

export function createPublishedSite(initial: Publication | undefined): PublishedSite {
  let publication = initial;
  return {
    current: () => publication,
    staticDir: () => publication?.staticDir,
    publish(next) {
      publication = next;
    },
  };
}
