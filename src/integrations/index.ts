import type { AstroIntegration } from 'astro';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressible } from '../lib/site/fileHeaders.ts';

export { incrementalBuild } from './incremental.ts';

/** Registers `client:intent` (see intent-directive.ts). */
export function intentDirective(): AstroIntegration {
  return {
    name: 'hgd:intent-directive',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'intent',
          entrypoint: fileURLToPath(new URL('./intent-directive.ts', import.meta.url)),
        });
      },
    },
  };
}

/**
 * Fails the build when a page would break under its own Content-Security-Policy: an inline script
 * or style it does not list, an unsafe source, an event-handler or style attribute
 * (pagePolicy.ts). Runs before `sitemap` and the compression, so a failing build stops early.
 */
export function pagePolicyCheck(): AstroIntegration {
  return {
    name: 'hgd:page-policy',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const { buildPolicyProblems } = await import('./pagePolicy.ts');
        const { carriedFromBase } = await import('./incremental.ts');
        // An incremental build's unchanged pages are the base build's, checked when it was built.
        const failing = await buildPolicyProblems(fileURLToPath(dir), carriedFromBase);
        if (failing.length > 0) {
          const listed = failing.slice(0, 20).map(({ page, problems }) => `  ${page}: ${problems.join('; ')}`);
          const more = failing.length > listed.length ? [`  … and ${failing.length - listed.length} more pages`] : [];
          throw new Error(
            `${failing.length} pages would break under their Content-Security-Policy:\n${[...listed, ...more].join('\n')}`,
          );
        }
        logger.info('every page runs only the scripts and styles its Content-Security-Policy lists');
      },
    },
  };
}

/** Writes `sitemap.xml` from the built pages (see sitemap.ts); runs before the compression. */
export function sitemap(): AstroIntegration {
  let site = new URL('http://localhost:4321');
  return {
    name: 'hgd:sitemap',
    hooks: {
      'astro:config:done': ({ config }) => {
        if (config.site) site = new URL(config.site);
      },
      'astro:build:done': async ({ dir, pages, logger }) => {
        const { writeSitemap, listedPaths } = await import('./sitemap.ts');
        const { carriedPages, baseBuildDir } = await import('./incremental.ts');
        // Astro lists the pages it rendered; an incremental build's others are the base's.
        const base = baseBuildDir();
        const carried = base
          ? { paths: carriedPages, baseListed: listedPaths(await readFile(path.join(base, 'sitemap.xml'), 'utf8')) }
          : undefined;
        const count = await writeSitemap(
          fileURLToPath(dir),
          site,
          [...pages.map((page) => page.pathname), ...carriedPages],
          carried,
        );
        logger.info(`sitemap.xml lists ${count} indexable pages`);
      },
    },
  };
}

/**
 * Writes the search index of every locale from the built pages (searchIndex.ts), and the `.br` and
 * `.gz` beside every compressible file (compress.ts) for the server to send as they are. Pagefind
 * indexes in a process of its own, so the files the build wrote are compressed meanwhile, and the
 * bundles' files once they are written: the two steps share the cores instead of following each
 * other. Runs after `incrementalBuild` has put the unchanged pages in place; in an incremental
 * build, the bundles' files that did not change are the base build's (`shareWithBase`), and every
 * file whose `.br` and `.gz` are the base's is left as it is.
 */
export function searchIndexAndCompression(): AstroIntegration {
  return {
    name: 'hgd:search-index',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const { writeSearchIndex, searchBundlesDir } = await import('./searchIndex.ts');
        const { compressFiles, compressibleFiles } = await import('./compress.ts');
        const { reusedCompression, shareWithBase } = await import('./incremental.ts');
        const bundles = searchBundlesDir(outDir) + path.sep;
        const toCompress = (files: readonly string[]) => files.filter((file) => !reusedCompression.has(file));
        const written = toCompress((await compressibleFiles(outDir)).filter((file) => !file.startsWith(bundles)));

        // A line per 5 % of the compression, once the index is written, for the studio's progress
        // bar (site/buildCommand.ts reads them: one step after the other).
        const compressed = { written: 0, bundles: 0 };
        let total: number | undefined = undefined;
        let reported = -1;
        const reportCompression = () => {
          if (total === undefined) return;
          const done = compressed.written + compressed.bundles;
          const step = Math.floor((done / Math.max(total, 1)) * 20);
          if (step === reported && done !== total) return;
          reported = step;
          logger.info(`compressed ${done} / ${total}`);
        };
        const compressing = compressFiles(written, (done) => {
          compressed.written = done;
          reportCompression();
        });

        // A line per 10 % of the pages indexed.
        let indexReported = -1;
        const figures = await writeSearchIndex(outDir, {
          onProgress: (done, of) => {
            const step = Math.floor((done / Math.max(of, 1)) * 10);
            if (step === indexReported && done !== of) return;
            indexReported = step;
            logger.info(`indexed ${done} / ${of} pages`);
          },
        });
        const perLocale = Object.entries(figures.pages)
          .map(([locale, count]) => `${locale} ${count}`)
          .join(', ');
        logger.info(`search index written in ${(figures.ms / 1000).toFixed(1)} s (${perLocale})`);
        const shared = await shareWithBase(outDir, figures.files);
        if (shared > 0)
          logger.info(`${shared} of ${figures.files.length} search index files unchanged, taken from the base build`);

        const bundleFiles = toCompress(figures.files.filter((file) => compressible.test(file)));
        total = written.length + bundleFiles.length;
        reportCompression();
        const counts = await Promise.all([
          compressing,
          compressFiles(bundleFiles, (done) => {
            compressed.bundles = done;
            reportCompression();
          }),
        ]);
        logger.info(`precompressed ${counts[0] + counts[1]} files (br + gzip)`);
      },
    },
  };
}

/**
 * In `astro dev`, answers `/api/*` with the real Hono app, loaded through Vite so edits to the
 * server reload too. One command, one port, live reload for both halves.
 */
export function devApi(): AstroIntegration {
  return {
    name: 'hgd:dev-api',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use(async (req, res, next) => {
          if (!req.url?.startsWith('/api/') && req.url !== '/api') return next();
          try {
            const { getRequestListener } = await import('@hono/node-server');
            const { createDevApp } = (await server.ssrLoadModule(
              '/src/server/main.ts',
            )) as typeof import('../server/main.ts');
            const app = await createDevApp();
            await getRequestListener(app.fetch)(req, res);
          } catch (error) {
            next(error);
          }
        });
      },
    },
  };
}
