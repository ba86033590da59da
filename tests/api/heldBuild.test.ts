/**
 * The build held ready (site/buildCommand.ts `heldAstroBuildCommand`, content/heldBuild.ts)
 * against a stand-in `astro build` that speaks the real protocol (it imports content/heldBuild.ts)
 * and writes one page naming the content directory it was given: a request is built by the held
 * build with the request's content, in the request's directory, and the next one is held at once
 * (or, when the request says when its job ends, then);
 * a request with other settings, or one that finds the held build ended, gets a build of its own;
 * a request's time limit ends a held build still bundling; closing ends the held build.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldAstroBuildCommand, type BuildRequest } from '../../src/server/site/buildCommand.ts';
import { alive } from './processes.ts';

const protocol = path.resolve(import.meta.dirname, '../../src/content/heldBuild.ts');
let project: string;

/** The stand-in: held until its order when HELD_BUILD is set (exiting first with HELD_FAILS, hanging with HELD_HANGS), then a page. */
const astroBin = `
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { awaitBuildOrder, isHeldBuild } from ${JSON.stringify(protocol)};
const outDir = process.argv[process.argv.indexOf('--outDir') + 1];
if (isHeldBuild()) {
  writeFileSync(path.join(outDir, 'build.pid'), String(process.pid));
  if (process.env.HELD_FAILS) process.exit(3);
  if (process.env.HELD_HANGS) setInterval(() => {}, 1000);
  else await awaitBuildOrder();
}
writeFileSync(path.join(outDir, 'index.html'), '<title>' + process.env.CONTENT_DIR + (isHeldBuild() ? ' held' : ' own') + '</title>');
process.stdout.write('  └─ /index.html (+1ms)\\n');
`;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'hgd-held-build-'));
  mkdirSync(path.join(project, 'node_modules/astro/bin'), { recursive: true });
  await writeFile(path.join(project, 'package.json'), '{"name":"stand-in","type":"module"}');
  await writeFile(path.join(project, 'node_modules/astro/package.json'), '{"name":"astro","version":"0.0.0"}');
  await writeFile(path.join(project, 'node_modules/astro/bin/astro.mjs'), astroBin);
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

/** A request for `name`: its content directory and a fresh, empty output directory, as buildJob.ts makes them. */
function request(name: string, extra: Partial<BuildRequest> = {}): BuildRequest {
  const outDir = path.join(project, 'builds', name, 'dist');
  mkdirSync(outDir, { recursive: true });
  return {
    contentDir: path.join(project, 'builds', name, 'content'),
    outDir,
    signal: AbortSignal.timeout(20_000),
    ...extra,
  };
}

const page = (outDir: string) => readFileSync(path.join(outDir, 'index.html'), 'utf8');

/** The pid of the build held in `spareDir` once it has started. */
async function heldPid(spareDir: string, count: number): Promise<number> {
  const file = path.join(spareDir, `held-${process.pid}-${count}`, 'build.pid');
  for (let i = 0; i < 200 && !existsSync(file); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  return Number(readFileSync(file, 'utf8'));
}

describe('a build held ready', () => {
  it('builds a request with its content, in its directory, and holds the next; closing ends the held one', async () => {
    const spareDir = path.join(project, 'spare-1');
    const command = heldAstroBuildCommand({ spareDir, projectRoot: project, env: { BUILD_ID: 'held-test' } });
    command.hold();
    const pages: number[] = [];
    const first = request('first', {
      env: { BUILD_ID: 'held-test', INCREMENTAL_PLAN: '/plan.json' },
      onProgress: (_step, done) => pages.push(done),
    });
    await command(first);
    expect(page(first.outDir)).toBe(`<title>${first.contentDir} held</title>`);
    expect(pages).toEqual([1]);
    const second = request('second', { env: { BUILD_ID: 'held-test' } });
    await command(second);
    expect(page(second.outDir)).toBe(`<title>${second.contentDir} held</title>`);
    expect(command.served).toEqual({ held: 2, cold: 0 });

    const next = await heldPid(spareDir, 3);
    expect(alive(next)).toBe(true);
    command.close();
    for (let i = 0; i < 100 && alive(next); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(alive(next)).toBe(false);
    const afterClose = request('after-close', { env: { BUILD_ID: 'held-test' } });
    await command(afterClose);
    expect(page(afterClose.outDir)).toBe(`<title>${afterClose.contentDir} own</title>`);
  }, 30_000);

  it('holds the next build once the job the last one was for has ended, not while it still publishes', async () => {
    const spareDir = path.join(project, 'spare-5');
    const command = heldAstroBuildCommand({ spareDir, projectRoot: project });
    command.hold();
    let endJob = () => {};
    const jobEnded = new Promise<void>((resolve) => (endJob = resolve));
    const built = request('job', { jobEnded });
    await command(built);
    expect(page(built.outDir)).toBe(`<title>${built.contentDir} held</title>`);
    // The job stores, stages and publishes now: no build is bundling beside it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(path.join(spareDir, `held-${process.pid}-2`))).toBe(false);
    endJob();
    expect(alive(await heldPid(spareDir, 2))).toBe(true);
    command.close();
  }, 30_000);

  it('builds a request with other settings (other locales) by a build of its own, and keeps the held one', async () => {
    const command = heldAstroBuildCommand({ spareDir: path.join(project, 'spare-2'), projectRoot: project });
    command.hold();
    const otherLocales = request('other-locales', { env: { BUILD_LOCALES: 'zh-CN' } });
    await command(otherLocales);
    expect(page(otherLocales.outDir)).toBe(`<title>${otherLocales.contentDir} own</title>`);
    const publication = request('publication');
    await command(publication);
    expect(page(publication.outDir)).toBe(`<title>${publication.contentDir} held</title>`);
    expect(command.served).toEqual({ held: 1, cold: 1 });
    command.close();
  }, 30_000);

  it('builds a request by a build of its own when the held one ended before it was ready', async () => {
    const command = heldAstroBuildCommand({
      spareDir: path.join(project, 'spare-3'),
      projectRoot: project,
      env: { HELD_FAILS: '1' },
    });
    command.hold();
    const publication = request('held-failed', { env: { HELD_FAILS: '1' } });
    await command(publication);
    expect(page(publication.outDir)).toBe(`<title>${publication.contentDir} own</title>`);
    expect(command.served).toEqual({ held: 0, cold: 1 });
    command.close();
  }, 30_000);

  it('ends a held build still bundling when the request’s time runs out', async () => {
    const spareDir = path.join(project, 'spare-4');
    const command = heldAstroBuildCommand({ spareDir, projectRoot: project, env: { HELD_HANGS: '1' } });
    command.hold();
    const pid = await heldPid(spareDir, 1);
    const publication = request('timed-out', { env: { HELD_HANGS: '1' }, signal: AbortSignal.timeout(500) });
    await expect(command(publication)).rejects.toThrow(/build stopped/);
    for (let i = 0; i < 100 && alive(pid); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(alive(pid)).toBe(false);
    command.close();
  }, 30_000);
});
