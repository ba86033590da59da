/**
 * Site search on real builds (zh-CN pages, to keep it to a few minutes): the build's index step
 * (Pagefind's Node API, src/integrations/searchIndex.ts) over a full build, asked as the search
 * island asks it (scripts/search-bundle.ts); real queries — two-character words among them — find
 * their page in the first 3; and after an incremental publication (a news item added, another
 * removed) the index finds the new item and no longer the removed one, its unchanged files being
 * the base build's (hard links: the publication's archive carries only what changed).
 */
import { cpSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchBundle } from '../../scripts/search-bundle.ts';
import { loadContent } from '../../src/content/load.ts';
import { incrementalPlanVariable } from '../../src/content/pageGraph.ts';
import { astroBuildCommand, type BuildStep } from '../../src/server/site/buildCommand.ts';
import { planBuild } from '../../src/server/site/incremental.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const env = { BUILD_LOCALES: 'zh-CN', BUILD_ID: 'search-test' };
const guangdong = '440000';
let root: string;

/** Builds `contentDir` into `<dir>/dist`; answers the steps the build reported, in order. */
async function build(dir: string, contentDir: string, extra: Record<string, string> = {}): Promise<BuildStep[]> {
  cpSync(contentDir, path.join(dir, 'content'), { recursive: true });
  const steps: BuildStep[] = [];
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    await astroBuildCommand(projectRoot)({
      contentDir: path.join(dir, 'content'),
      outDir: path.join(dir, 'dist'),
      signal: AbortSignal.timeout(5 * 60_000),
      env: { ...env, ...extra },
      onProgress: (step) => {
        if (steps.at(-1) !== step) steps.push(step);
      },
    });
  } finally {
    process.env = saved;
  }
  return steps;
}

async function firstThree(distDir: string, query: string): Promise<string[]> {
  const bundle = await openSearchBundle(distDir, 'zh-CN');
  try {
    return (await bundle.search(query, guangdong, 3)).hits.map((hit) => hit.path.split('#')[0] ?? hit.path);
  } finally {
    await bundle.close();
  }
}

const addedId = 'search-test-added';
const addedTitle = '虚拟电厂聚合服务试点启动';

describe('site search on a real build', () => {
  let base: string;
  let baseSteps: BuildStep[];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'hgd-search-'));
    base = path.join(root, 'base');
    baseSteps = await build(base, path.join(projectRoot, 'src/content'));
  }, 5 * 60_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('indexes as a step of its own, between the pages and their compression', () => {
    expect(baseSteps).toEqual(['build', 'index', 'compress']);
  });

  it.each([
    [
      '电价',
      [
        '/infomation/detail/20250425-policy-tou',
        '/infomation/detail/20250210-policy-136',
        '/products/id5',
        '/products/id2',
      ],
    ],
    ['认证', ['/assistance/certification-overview', '/assistance/certification-returned']],
    ['峰谷电价', ['/infomation/detail/20250425-policy-tou', '/products/id5', '/products/id5/gd-tou-2027']],
    ['企业认证', ['/assistance/certification-overview']],
    ['营业执照', ['/assistance/certify-by-certificate']],
  ])('%s finds its page in the first 3', async (query, answers) => {
    const top = await firstThree(path.join(base, 'dist'), query);
    expect(
      top.some((found) => answers.includes(found)),
      `${query} → ${top.join(', ')}`,
    ).toBe(true);
  });

  it(
    'finds a news item an incremental publication added, and no longer one it removed',
    async () => {
      const changed = path.join(root, 'changed-content');
      cpSync(path.join(projectRoot, 'src/content'), changed, {
        recursive: true,
        filter: (source) => !source.endsWith('.ts'),
      });
      const news = readdirSync(path.join(changed, 'news')).sort();
      const removedFile = news[1]!;
      const removedId = removedFile.replace(/\.md$/, '');
      const removedTitle =
        /^title: (.*)$/m.exec(readFileSync(path.join(changed, 'news', removedFile), 'utf8'))?.[1] ?? '';
      unlinkSync(path.join(changed, 'news', removedFile));
      const added = readFileSync(path.join(changed, 'news', news[0]!), 'utf8')
        .replace(/^title: .*$/m, `title: ${addedTitle}`)
        .replace(/^date: .*$/m, 'date: 2026-12-24');
      writeFileSync(
        path.join(changed, 'news', `${addedId}.md`),
        `${added}\n首批${addedTitle.slice(0, 4)}试点企业将在平台上报可调负荷。\n`,
      );

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
      const planFile = path.join(root, 'plan.json');
      writeFileSync(planFile, JSON.stringify(plan.plan));
      const incremental = path.join(root, 'incremental');
      await build(incremental, changed, { [incrementalPlanVariable]: planFile });

      expect(await firstThree(path.join(base, 'dist'), '虚拟电厂')).not.toContain(`/infomation/detail/${addedId}`);
      expect((await firstThree(path.join(incremental, 'dist'), '虚拟电厂'))[0]).toBe(`/infomation/detail/${addedId}`);
      expect(await firstThree(path.join(base, 'dist'), removedTitle)).toContain(`/infomation/detail/${removedId}`);
      expect(await firstThree(path.join(incremental, 'dist'), removedTitle)).not.toContain(
        `/infomation/detail/${removedId}`,
      );

      const bundle = path.join(incremental, 'dist', 'pagefind');
      const files = readdirSync(bundle, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(bundle, path.join(entry.parentPath, entry.name)));
      const shared = files.filter((file) => {
        try {
          return statSync(path.join(bundle, file)).ino === statSync(path.join(base, 'dist', 'pagefind', file)).ino;
        } catch {
          return false;
        }
      });
      console.log(`search index after the publication: ${shared.length} of ${files.length} files the base build's`);
      expect(shared.length).toBeGreaterThan(files.length * 0.8);
      expect(shared.length).toBeLessThan(files.length);
    },
    6 * 60_000,
  );
});
