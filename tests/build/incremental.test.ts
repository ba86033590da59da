/**
 * Incremental publication writes what a full build writes: real `astro build`s (zh-CN and en-US
 * pages, to keep it to a few minutes) of a base content, then of changed content twice —
 * incrementally over the base, by the build held ready as a worker runs it (content/heldBuild.ts),
 * and in full by a build of its own — and every file of the two outputs compared byte for byte
 * (pages, their `.br` and `.gz`, the sitemap, the page graph). The changes touch news (an edit, an
 * addition and a removal), a help document, a product set and, alone, the English translation of
 * an announcement's title, so list pages, home pages and details all move — and an English page
 * whose Chinese original did not change.
 */
import { cpSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { incrementalPlanVariable, sourceVersion } from '../../src/content/pageGraph.ts';
import { astroBuildCommand, heldAstroBuildCommand, type BuildCommand } from '../../src/server/site/buildCommand.ts';
import { planBuild } from '../../src/server/site/incremental.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const env = { BUILD_LOCALES: 'zh-CN,en-US', BUILD_ID: 'incremental-test' };
let root: string;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Builds `contentDir` into `<dir>/dist` (with the content beside it, as a build directory holds it), by `command`. */
async function build(
  dir: string,
  contentDir: string,
  extra: Record<string, string> = {},
  command: BuildCommand = astroBuildCommand(projectRoot),
): Promise<number> {
  cpSync(contentDir, path.join(dir, 'content'), { recursive: true });
  let pages = 0;
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    await command({
      contentDir: path.join(dir, 'content'),
      outDir: path.join(dir, 'dist'),
      signal: AbortSignal.timeout(5 * 60_000),
      env: { ...env, ...extra },
      onProgress: (step) => {
        if (step === 'build') pages += 1;
      },
    });
  } finally {
    process.env = saved;
  }
  return pages;
}

/** The base content with news, help and a set changed. */
function changeContent(from: string, to: string): void {
  cpSync(from, to, { recursive: true, filter: (source) => !source.endsWith('.ts') });
  const news = readdirSync(path.join(to, 'news')).sort();
  const edited = path.join(to, 'news', news.at(-1)!);
  writeFileSync(edited, `${readFileSync(edited, 'utf8')}\n增量发布测试追加的一段正文。\n`);
  const added = readFileSync(path.join(to, 'news', news[0]!), 'utf8')
    .replace(/^title: .*$/m, 'title: 增量发布测试新增的新闻')
    .replace(/^date: .*$/m, 'date: 2026-12-24');
  writeFileSync(path.join(to, 'news', 'incremental-added.md'), added);
  unlinkSync(path.join(to, 'news', news[1]!));
  const help = path.join(to, 'help', 'order-status.md');
  writeFileSync(help, readFileSync(help, 'utf8').replace(/^title: (.*)$/m, 'title: $1（已更新）'));
  const setsDir = path.join(to, 'sets', '440000');
  const set = path.join(setsDir, readdirSync(setsDir).sort()[0]!);
  writeFileSync(set, readFileSync(set, 'utf8').replace(/^(setName|name): (.*)$/m, '$1: $2 · 新版'));
  // A translation alone: only the English pages that show it change.
  const translated = path.join(to, 'notices', 'notice-fraud-warning.md');
  const source = readFileSync(translated, 'utf8');
  const retitled = source.replace('Posing as Platform Staff"', 'Posing as Platform Staff (updated)"');
  if (retitled === source) throw new Error('notices/notice-fraud-warning.md has no en-US title to change');
  writeFileSync(translated, retitled);
}

describe('incremental publication', () => {
  let base: string;
  let changed: string;
  let basePages: number;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'hgd-incremental-'));
    base = path.join(root, 'base');
    basePages = await build(base, path.join(projectRoot, 'src/content'));
    changed = path.join(root, 'changed-content');
    changeContent(path.join(projectRoot, 'src/content'), changed);
  }, 5 * 60_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    're-renders only the pages the changes touch, and writes every file as a full build does',
    async () => {
      const saved = { ...process.env };
      Object.assign(process.env, env);
      const plan = planBuild({
        base: { buildId: 1, dir: base },
        content: loadContent(changed),
        load: loadContent,
        projectRoot,
      });
      process.env = saved;
      expect(plan.mode, plan.mode === 'full' ? plan.reason : '').toBe('incremental');
      if (plan.mode !== 'incremental') return;
      expect(plan.plan.changed.length).toBeGreaterThan(0);
      const planFile = path.join(root, 'plan.json');
      writeFileSync(planFile, JSON.stringify(plan.plan));

      // Incremental by the build held ready (bundled before it was asked, as a worker's is), full by a build of its own.
      const held = heldAstroBuildCommand({ spareDir: path.join(root, 'held'), projectRoot, env });
      held.hold();
      const incremental = path.join(root, 'incremental');
      try {
        await build(incremental, changed, { [incrementalPlanVariable]: planFile }, held);
      } finally {
        held.close();
      }
      expect(held.served).toEqual({ held: 1, cold: 0 });
      const full = path.join(root, 'full');
      await build(full, changed);

      const written = files(path.join(incremental, 'dist'));
      expect(written).toEqual(files(path.join(full, 'dist')));
      const different = written.filter(
        (file) =>
          !readFileSync(path.join(incremental, 'dist', file)).equals(readFileSync(path.join(full, 'dist', file))),
      );
      expect(different).toEqual([]);

      // Most pages came from the base: the same file (a hard link), not a new rendering.
      const pages = written.filter((file) => file.endsWith('.html'));
      const carried = pages.filter((file) => {
        try {
          return statSync(path.join(incremental, 'dist', file)).ino === statSync(path.join(base, 'dist', file)).ino;
        } catch {
          return false;
        }
      });
      console.log(
        `incremental: ${plan.plan.changed.length} content keys changed; ${pages.length - carried.length} of ${pages.length} pages rendered (a full build renders ${basePages})`,
      );
      expect(carried.length).toBeGreaterThan(pages.length * 0.5);
    },
    8 * 60_000,
  );

  it('writes the licences of the client chunks’ packages, linked from the footer, and no server-only package', () => {
    const dist = path.join(base, 'dist');
    const notices = readFileSync(path.join(dist, 'licences.txt'), 'utf8');
    const listed = [...notices.matchAll(/^ {2}(\S+) \S+ {2}.+ {2}— in (.+)$/gm)].map(([, name, where]) => ({
      name,
      where,
    }));
    // React is cut into its own chunk and nanostores into the signed-in pages' core (clientChunks.ts).
    const chunks = readdirSync(path.join(dist, '_astro'));
    expect(chunks.some((file) => /^react\.[\w-]+\.js$/.test(file))).toBe(true);
    expect(chunks.some((file) => /^core\.[\w-]+\.js$/.test(file))).toBe(true);
    for (const name of ['react', 'react-dom', 'nanostores', 'zod']) {
      expect(listed, name).toContainEqual({ name, where: 'the scripts (client chunks)' });
    }
    for (const name of ['hono', '@hono/node-server', 'drizzle-orm', 'pino', 'postgres', 'qr', 'otpauth', 'sharp']) {
      expect(listed.map((entry) => entry.name)).not.toContain(name);
    }
    expect(readFileSync(path.join(dist, 'welcome/home/index.html'), 'utf8')).toContain('href="/licences.txt"');
  });

  it('builds every page when the code differs from the base build', () => {
    const graphFile = path.join(base, 'dist', '.pages.json');
    const graph = JSON.parse(readFileSync(graphFile, 'utf8')) as { codeVersion: string };
    writeFileSync(graphFile, JSON.stringify({ ...graph, codeVersion: 'other code', sourceVersion: 'other sources' }));
    const plan = planBuild({
      base: { buildId: 1, dir: base },
      content: loadContent(changed),
      load: loadContent,
      projectRoot,
    });
    expect(plan).toEqual({ mode: 'full', reason: 'the code changed since the published build' });
  });

  it('names the setting when only the build settings differ from the base build’s (a release built without the deployment’s PUBLIC_ORIGIN)', () => {
    const graphFile = path.join(base, 'dist', '.pages.json');
    const graph = JSON.parse(readFileSync(graphFile, 'utf8')) as { settings: Record<string, string> };
    expect(graph.settings).toEqual({ ...env, PUBLIC_ORIGIN: process.env['PUBLIC_ORIGIN'] ?? '' });
    // Built for the deployment's origin; planned here with the same sources and the build's other settings.
    writeFileSync(
      graphFile,
      JSON.stringify({
        ...graph,
        codeVersion: 'other code',
        sourceVersion: sourceVersion(projectRoot),
        settings: { ...graph.settings, PUBLIC_ORIGIN: 'https://portal.example.com' },
      }),
    );
    const saved = { ...process.env };
    Object.assign(process.env, env, { PUBLIC_ORIGIN: '' });
    try {
      const plan = planBuild({
        base: { buildId: 1, dir: base },
        content: loadContent(changed),
        load: loadContent,
        projectRoot,
      });
      expect(plan).toEqual({
        mode: 'full',
        reason:
          'the published build was made with other settings: PUBLIC_ORIGIN "https://portal.example.com" there, "" here (build a release with the deployment\'s settings: docs/deployment.md)',
      });
    } finally {
      process.env = saved;
    }
  });
});
