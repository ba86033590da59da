/**
 * The build a worker runs (site/buildCommand.ts) against the stops it meets: a SIGTERM to the
 * worker's whole process group (systemd's default stop) must not end the build, which the stopping
 * worker lets finish; a worker killed outright must not leave its build running. The build is a
 * stand-in for `astro build` (a project whose `astro` bin writes one page after a while), run by a
 * stand-in worker in a process group of its own (buildStops/driver.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from './processes.ts';

const driver = path.join(import.meta.dirname, 'buildStops/driver.ts');
let project: string;

/** What the stand-in `astro build` does: its pid to a file, a page line, a wait, the page. */
const astroBin = `
import { writeFileSync } from 'node:fs';
import path from 'node:path';
const outDir = process.argv[process.argv.indexOf('--outDir') + 1];
writeFileSync(path.join(outDir, 'build.pid'), String(process.pid));
process.stdout.write('  └─ /index.html (+1ms)\\n');
setTimeout(() => writeFileSync(path.join(outDir, 'index.html'), '<!doctype html><title>built</title>'), 1500);
`;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'hgd-build-stops-'));
  await mkdir(path.join(project, 'node_modules/astro/bin'), { recursive: true });
  await writeFile(path.join(project, 'package.json'), '{"name":"stand-in","type":"module"}');
  await writeFile(path.join(project, 'node_modules/astro/package.json'), '{"name":"astro","version":"0.0.0"}');
  await writeFile(path.join(project, 'node_modules/astro/bin/astro.mjs'), astroBin);
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

/** The stand-in worker, in a process group of its own (as a supervisor starts a service), and its output. */
async function startWorker(outDir: string): Promise<{ worker: ChildProcess; output: () => string; buildPid: number }> {
  await mkdir(outDir, { recursive: true });
  const worker = spawn(process.execPath, [driver, project, outDir], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const pidFile = path.join(outDir, 'build.pid');
  for (let i = 0; i < 200 && !existsSync(pidFile); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  return { worker, output: () => output, buildPid: Number(await readFile(pidFile, 'utf8')) };
}

describe('a build under a stopping worker', () => {
  it('goes on through a SIGTERM to the worker’s process group, and the worker sees it built', async () => {
    const outDir = path.join(project, 'group-stop');
    const { worker, output } = await startWorker(outDir);
    process.kill(-worker.pid!, 'SIGTERM');
    for (let i = 0; i < 200 && !/built|failed/.test(output()); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output()).toContain('stopping: the build may finish');
    expect(output()).toMatch(/^built$/m);
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(true);
    worker.kill('SIGKILL');
  }, 30_000);

  it('ends with a worker killed outright (kill -9): no build is left running', async () => {
    const outDir = path.join(project, 'killed');
    const { worker, buildPid } = await startWorker(outDir);
    expect(alive(buildPid)).toBe(true);
    worker.kill('SIGKILL');
    for (let i = 0; i < 60 && alive(buildPid); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(buildPid)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(false);
  }, 30_000);
});
