/**
 * The release a process names (src/server/release.ts) in throwaway projects: git's commit in a
 * checkout, the record `npm run build` leaves in its build once the tree has no `.git`, and
 * `unknown` when neither is there or the record is of another version. And the operator console's
 * footer line that shows it (inlineScripts.ts), run on a stand-in document.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSite, type BuildCommand } from '../../scripts/build-state.ts';
import { releaseLineScript } from '../../src/components/inlineScripts.ts';
import { readRelease, recordRelease, releaseRecordName, unknownCommit } from '../../src/server/release.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'release-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '2.3.4' }));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();

function commitAll(): string {
  git('init', '--quiet');
  git('add', 'package.json');
  git('commit', '--quiet', '-m', 'one');
  return git('rev-parse', 'HEAD');
}

function writeRecord(record: unknown): void {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', releaseRecordName), JSON.stringify(record));
}

const aCommit = 'a'.repeat(40);

describe('the release of a project', () => {
  it("is package.json's version and git's commit in a checkout, even beside an older record", () => {
    const head = commitAll();
    writeRecord({ version: '2.3.4', commit: aCommit });
    expect(readRelease(root)).toEqual({ version: '2.3.4', commit: head });
    expect(head).toMatch(/^[0-9a-f]{40}$/);
  });

  it('reads the build record when the tree has no .git', () => {
    writeRecord({ version: '2.3.4', commit: aCommit });
    expect(readRelease(root)).toEqual({ version: '2.3.4', commit: aCommit });
  });

  it('is unknown without either, and with a record of another version or that is not a record', () => {
    expect(readRelease(root)).toEqual({ version: '2.3.4', commit: unknownCommit });
    writeRecord({ version: '2.3.3', commit: aCommit });
    expect(readRelease(root).commit).toBe(unknownCommit);
    writeRecord({ version: '2.3.4', commit: 'HEAD; rm -rf /' });
    expect(readRelease(root).commit).toBe(unknownCommit);
    writeFileSync(join(root, 'dist', releaseRecordName), '{not json');
    expect(readRelease(root).commit).toBe(unknownCommit);
  });

  it("takes no commit from a parent directory's repository", () => {
    const head = commitAll();
    const inner = join(root, 'shipped');
    mkdirSync(inner);
    writeFileSync(join(inner, 'package.json'), JSON.stringify({ version: '2.3.4' }));
    expect(head).not.toBe(unknownCommit);
    expect(readRelease(inner).commit).toBe(unknownCommit);
  });
});

describe('npm run build records the release in its build', () => {
  const emptyBuild: BuildCommand = (outDir) => ({
    command: process.execPath,
    args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(join(outDir, 'index.html'))}, 'x')`],
  });

  it('so that the tree shipped without .git still names its commit', async () => {
    mkdirSync(join(root, 'src'));
    const past = (Date.now() - 60_000) / 1000;
    utimesSync(join(root, 'src'), past, past);
    const head = commitAll();
    await buildSite({ root, command: emptyBuild });
    expect(JSON.parse(readFileSync(join(root, 'dist', releaseRecordName), 'utf8'))).toEqual({
      version: '2.3.4',
      commit: head,
    });
    rmSync(join(root, '.git'), { recursive: true, force: true });
    expect(readRelease(root)).toEqual({ version: '2.3.4', commit: head });
    // A build made there keeps the commit it was shipped with.
    const next = join(root, 'next-build');
    mkdirSync(next);
    expect(recordRelease(next, root)).toEqual({ version: '2.3.4', commit: head });
  });
});

describe("the operator console's footer line", () => {
  async function show(answer: () => Promise<unknown>) {
    const line = { hidden: true, textContent: '', dataset: { template: '版本 {version} · 提交 {commit}' } };
    const document = { currentScript: { previousElementSibling: line } };
    const asked: unknown[][] = [];
    const fetch = (...args: unknown[]) => {
      asked.push(args);
      return answer();
    };
    new Function('document', 'fetch', releaseLineScript)(document, fetch);
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { line, asked };
  }
  const answering = (status: number, body: unknown) => () =>
    Promise.resolve({ ok: status === 200, json: () => Promise.resolve(body) });

  it('shows the version and the short commit the liveness call answers, asking without cookies', async () => {
    const { line, asked } = await show(
      answering(200, { code: 200, data: { status: 'live', version: '1.2.0', commit: `abc1234${'0'.repeat(33)}` } }),
    );
    expect(line).toMatchObject({ hidden: false, textContent: '版本 1.2.0 · 提交 abc1234' });
    expect(asked).toEqual([['/api/health/live', { credentials: 'omit' }]]);
    expect((await show(answering(200, { data: { version: '1.2.0', commit: unknownCommit } }))).line.textContent).toBe(
      '版本 1.2.0 · 提交 unknown',
    );
  });

  it('stays hidden when the API fails, answers an error or an older shape', async () => {
    for (const answer of [
      () => Promise.reject(new TypeError('Failed to fetch')),
      answering(503, { code: 503, data: {} }),
      answering(200, { code: 200, data: { status: 'live', uptime: 3 } }),
      answering(200, 'not json'),
    ]) {
      const { line } = await show(answer);
      expect(line).toMatchObject({ hidden: true, textContent: '' });
    }
  });
});
