/**
 * The static build's switch (scripts/build-state.ts) with a tiny stand-in for `astro build`: a
 * build is made in a fresh directory and `dist` switched to it in one rename, so dist/ is always a
 * complete build, even with two builds at once; a failed build leaves dist/ as it was; a finished
 * build is marked current, so a start after `npm run build` builds nothing.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIsStale, buildSite, type BuildCommand } from '../../scripts/build-state.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-state-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'page.astro'), 'v1');
  // The sources are older than any build of this test.
  const past = (Date.now() - 60_000) / 1000;
  utimesSync(join(root, 'src', 'page.astro'), past, past);
  utimesSync(join(root, 'src'), past, past);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes `index.html` (with `label`) into the build directory, slowly, file by file. */
function fakeBuild(label: string, { fail = false, delayMs = 150 } = {}): BuildCommand {
  const script = `
    const fs = require('node:fs');
    const out = process.argv[1];
    fs.writeFileSync(out + '/part-1.html', ${JSON.stringify(label)});
    setTimeout(() => {
      if (${fail}) process.exit(3);
      fs.writeFileSync(out + '/index.html', ${JSON.stringify(label)});
    }, ${delayMs});`;
  return (outDir) => ({ command: process.execPath, args: ['-e', script, outDir] });
}

const served = () => readFileSync(join(root, 'dist', 'index.html'), 'utf8');

describe('a build is made aside and switched to in one step', () => {
  it('points dist at a complete, marked build, so the next start builds nothing', async () => {
    expect(buildIsStale(root)).toBe(true);
    await buildSite({ root, command: fakeBuild('one') });
    expect(lstatSync(join(root, 'dist')).isSymbolicLink()).toBe(true);
    expect(served()).toBe('one');
    expect(existsSync(join(root, 'dist', '.build-stamp'))).toBe(true);
    expect(buildIsStale(root)).toBe(false);
    // A source saved afterwards makes it stale again.
    writeFileSync(join(root, 'src', 'page.astro'), 'v2');
    expect(buildIsStale(root)).toBe(true);
  });

  it('never shows a half-made build while another is being made, and ends with a complete one from two at once', async () => {
    await buildSite({ root, command: fakeBuild('first') });
    const seen = new Set<string>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        seen.add(existsSync(join(root, 'dist', 'index.html')) ? served() : 'MISSING');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await Promise.all([
      buildSite({ root, command: fakeBuild('a', { delayMs: 200 }) }),
      buildSite({ root, command: fakeBuild('b', { delayMs: 120 }) }),
    ]);
    watching = false;
    await watch;
    expect(seen.has('MISSING')).toBe(false);
    expect([...seen].every((label) => ['first', 'a', 'b'].includes(label))).toBe(true);
    expect(['a', 'b']).toContain(served());
    expect(existsSync(join(root, 'dist', 'part-1.html'))).toBe(true);
  });

  it('leaves dist as it was when a build fails, and removes the failed directory', async () => {
    await buildSite({ root, command: fakeBuild('good') });
    const before = readdirSync(join(root, '.dist-builds'));
    await expect(buildSite({ root, command: fakeBuild('bad', { fail: true }) })).rejects.toThrow(
      /exit code 3.*unchanged/,
    );
    expect(served()).toBe('good');
    expect(readdirSync(join(root, '.dist-builds'))).toEqual(before);
  });

  it('takes over a dist/ directory of the old layout, and keeps only the newest builds', async () => {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'index.html'), 'old');
    await buildSite({ root, command: fakeBuild('new'), keep: 1 });
    expect(served()).toBe('new');
    for (const label of ['x', 'y', 'z']) await buildSite({ root, command: fakeBuild(label, { delayMs: 5 }), keep: 1 });
    expect(served()).toBe('z');
    // The current build and one more: the old directory and the older builds are gone.
    expect(readdirSync(join(root, '.dist-builds'))).toHaveLength(2);
  });
});
