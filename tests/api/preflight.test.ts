/**
 * The configuration checked at start (src/server/preflight.ts) and `npm start -- --check`: each
 * check against the real thing — a PostgreSQL port nobody listens on, buckets the S3 test server
 * has or lacks, keys it refuses, an endpoint that takes connections and never answers, a
 * DATA_DIR that cannot be a directory — and every failure on one line of its own that starts with
 * the variable to change, all of them together.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/postgres.ts';
import { loadConfig } from '../../src/server/config.ts';
import { startServer } from '../../src/server/main.ts';
import {
  assertPreflight,
  contradictions,
  displayDatabaseUrl,
  PreflightError,
  preflightLines,
  runPreflight,
  secretWeakness,
  weakSecrets,
} from '../../src/server/preflight.ts';
import { startS3Server, type TestS3Server } from './s3Server.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), 'hgd-preflight-'));
const dataDir = path.join(root, 'data');
const quiet = { LOG_LEVEL: 'silent', DATA_DIR: dataDir };

let s3: TestS3Server;
/** Takes connections and never answers: an endpoint behind a firewall that drops, or a hung service. */
let silent: Server;
const silentSockets = new Set<Socket>();
beforeAll(async () => {
  s3 = await startS3Server('hgd-preflight');
  silent = createServer((socket) => {
    silentSockets.add(socket);
    socket.on('close', () => silentSockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await s3?.stop();
  rmSync(root, { recursive: true, force: true });
});

const silentEndpoint = () => {
  const address = silent.address();
  if (address === null || typeof address === 'string') throw new Error('the silent server is not listening');
  return `http://127.0.0.1:${address.port}`;
};

/** A URL on a port of this machine that nobody listens on. */
async function deadDatabaseUrl(password: string): Promise<string> {
  return `postgres://portal:${password}@127.0.0.1:${await freePort()}/portal?sslmode=disable`;
}

describe('settings that contradict each other', () => {
  const problemsOf = (env: Record<string, string>) => contradictions(loadConfig({ ...quiet, ...env }));

  it('a local run and a proper deployment have none', () => {
    expect(problemsOf({})).toEqual([]);
    expect(
      problemsOf({
        PUBLIC_ORIGIN: 'https://portal.example.com',
        TRUST_PROXY: '1',
        DATABASE_URL: 'postgres://u@db/portal',
      }),
    ).toEqual([]);
    expect(problemsOf({ PUBLIC_ORIGIN: 'https://portal.example.com', COOKIE_SECURE: 'true' })).toEqual([]);
    expect(problemsOf({ PUBLIC_ORIGIN: 'http://localhost:4321', COOKIE_SECURE: 'true' })).toEqual([]);
  });

  it.each([
    [{ SITE_WORKER: 'external' }, 'SITE_WORKER=external without DATABASE_URL'],
    [
      { PUBLIC_ORIGIN: 'https://portal.example.com', COOKIE_SECURE: 'false', TRUST_PROXY: '1' },
      'COOKIE_SECURE=false with PUBLIC_ORIGIN=https://portal.example.com',
    ],
    [
      { PUBLIC_ORIGIN: 'https://portal.example.com' },
      'COOKIE_SECURE=auto with PUBLIC_ORIGIN=https://portal.example.com and TRUST_PROXY off',
    ],
    [
      { PUBLIC_ORIGIN: 'http://portal.example.com', COOKIE_SECURE: 'true' },
      'COOKIE_SECURE=true with PUBLIC_ORIGIN=http://portal.example.com',
    ],
    [{ SMS_HTTP_KEY: 'gateway-key-123' }, 'SMS_HTTP_KEY without SMS_HTTP_URL'],
    [
      { SESSION_IDLE_MINUTES: '720', SESSION_ABSOLUTE_HOURS: '12' },
      'SESSION_IDLE_MINUTES=720 is not shorter than SESSION_ABSOLUTE_HOURS=12',
    ],
  ])('%o is refused in one line naming the variables', (env, expected) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
    expect(problems[0]).not.toContain('\n');
  });

  it('reports every contradiction, not only the first', () => {
    expect(
      problemsOf({
        SITE_WORKER: 'external',
        SMS_HTTP_KEY: 'gateway-key-123',
        PUBLIC_ORIGIN: 'https://portal.example.com',
      }),
    ).toHaveLength(3);
  });
});

describe('secrets', () => {
  it('refuses values with few different characters or one short sequence repeated', () => {
    expect(secretWeakness('a'.repeat(40))).toBe('it has only 1 different character');
    expect(secretWeakness('abcabcabcabcabcabcabcabcabcabcabcabc')).toBe('it has only 3 different characters');
    expect(secretWeakness('Passw0rd!'.repeat(4))).toBe('it is one 9-character sequence repeated');
  });

  it('accepts random values and the usual generated forms', () => {
    for (let round = 0; round < 50; round += 1) {
      expect(secretWeakness(randomBytes(16).toString('hex'))).toBeUndefined();
      expect(secretWeakness(randomBytes(32).toString('base64'))).toBeUndefined();
    }
    expect(secretWeakness('rebuild-token-0123456789abcdef0123456789')).toBeUndefined();
  });

  it('names the variable and never echoes the value', () => {
    const weak = 'x'.repeat(32);
    const problems = weakSecrets(
      loadConfig({ ...quiet, APP_SECRET: weak, REBUILD_TOKEN: 'ab'.repeat(20), METRICS_TOKEN: 'metrics!'.repeat(5) }),
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^APP_SECRET is too weak: /);
    expect(problems[1]).toMatch(/^REBUILD_TOKEN is too weak: /);
    expect(problems[2]).toBe(
      'METRICS_TOKEN is too weak: it is one 8-character sequence repeated; use a random value (e.g. `openssl rand -base64 32`)',
    );
    expect(problems.join('\n')).not.toContain(weak);
    expect(problems.join('\n')).not.toContain('abab');
  });
});

describe('the database', () => {
  it('an unreachable DATABASE_URL fails within the budget, named without its password', async () => {
    const password = 'Sekr3t-Passw0rd';
    const url = await deadDatabaseUrl(password);
    const started = performance.now();
    const [result] = (await runPreflight(loadConfig({ ...quiet, DATABASE_URL: url }))).filter(
      (r) => r.check === 'database',
    );
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(result?.problems).toHaveLength(1);
    expect(result?.problems[0]).toMatch(
      /^DATABASE_URL \(postgres:\/\/portal:\*\*\*@127\.0\.0\.1:\d+\/portal\): cannot connect/,
    );
    expect(JSON.stringify(result)).not.toContain(password);
    expect(displayDatabaseUrl('postgresql://a:b@h:5432/d?password=b')).toBe('postgresql://a:***@h:5432/d');
  });

  it('a server that takes the connection and never answers fails naming DATABASE_URL after DB_CONNECT_TIMEOUT_MS', async () => {
    const url = `postgres://portal:secret@${silentEndpoint().slice('http://'.length)}/portal?sslmode=disable`;
    const started = performance.now();
    const [result] = (
      await runPreflight(loadConfig({ ...quiet, DATABASE_URL: url, DB_CONNECT_TIMEOUT_MS: '1000' }))
    ).filter((r) => r.check === 'database');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result?.problems[0]).toMatch(
      /^DATABASE_URL \(postgres:\/\/portal:\*\*\*@127\.0\.0\.1:\d+\/portal\): cannot connect and run a query: /,
    );
  });

  it.runIf(process.env['TEST_DATABASE_URL'] !== undefined)('a reachable server passes', async () => {
    const [result] = (
      await runPreflight(loadConfig({ ...quiet, DATABASE_URL: process.env['TEST_DATABASE_URL']! }))
    ).filter((r) => r.check === 'database');
    expect(result?.problems).toEqual([]);
  });

  it('PGlite: a DATA_DIR that cannot be a directory fails naming DATA_DIR', async () => {
    const file = path.join(root, 'not-a-directory');
    writeFileSync(file, '');
    const results = await runPreflight(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: file }));
    expect(results.find((r) => r.check === 'database')?.problems[0]).toMatch(
      /^DATA_DIR \(.*not-a-directory\): the embedded database cannot be written there: /,
    );
    expect(results.find((r) => r.check === 'object store')?.problems[0]).toMatch(
      /^DATA_DIR \(.*not-a-directory\): uploaded files cannot be written there: /,
    );
  });
});

describe('buckets', () => {
  it('the bucket of STORAGE=s3 takes a probe, which is removed again', async () => {
    const results = await runPreflight(loadConfig({ ...quiet, ...s3.env, S3_PREFIX: 'portal' }));
    expect(results.find((r) => r.check === 'object store')).toMatchObject({ problems: [] });
    expect(
      readdirSync(path.join(s3.directory, s3.bucket), { recursive: true }).filter((name) =>
        String(name).includes('probe'),
      ),
    ).toEqual([]);
  });

  it('a wrong S3_BUCKET fails naming it', async () => {
    const results = await runPreflight(loadConfig({ ...quiet, ...s3.env, S3_BUCKET: 'no-such-bucket' }));
    expect(results.find((r) => r.check === 'object store')?.problems).toEqual([
      `S3_BUCKET: bucket "no-such-bucket" at ${s3.endpoint} does not exist (S3_BUCKET, S3_ENDPOINT, S3_REGION)`,
    ]);
  });

  it('a wrong CDN_S3_BUCKET fails naming it, not S3_BUCKET; a right one passes', async () => {
    const wrong = await runPreflight(
      loadConfig({
        ...quiet,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        CDN_S3_BUCKET: 'no-cdn-bucket',
      }),
    );
    expect(wrong.find((r) => r.check === 'CDN bucket')?.problems).toEqual([
      `CDN_S3_BUCKET: bucket "no-cdn-bucket" at ${s3.endpoint} does not exist (CDN_S3_BUCKET, S3_ENDPOINT, S3_REGION)`,
    ]);
    const right = await runPreflight(
      loadConfig({
        ...quiet,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        CDN_S3_BUCKET: s3.bucket,
        CDN_S3_PREFIX: 'www',
      }),
    );
    expect(right.find((r) => r.check === 'CDN bucket')).toMatchObject({ problems: [] });
  });

  it('a closed port blames S3_ENDPOINT, not the bucket it never reached', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const results = await runPreflight(loadConfig({ ...quiet, ...s3.env, S3_ENDPOINT: endpoint }));
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(results.find((r) => r.check === 'object store')?.problems).toEqual([
      `S3_ENDPOINT: the service at S3_ENDPOINT=${endpoint} does not answer (connection refused), so S3_BUCKET="hgd-preflight" was never reached`,
    ]);
  });

  it('an endpoint that takes the connection and never answers blames S3_ENDPOINT after S3_TIMEOUT_MS', async () => {
    const started = performance.now();
    const results = await runPreflight(
      loadConfig({ ...quiet, ...s3.env, S3_ENDPOINT: silentEndpoint(), S3_TIMEOUT_MS: '1000' }),
    );
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(results.find((r) => r.check === 'object store')?.problems).toEqual([
      `S3_ENDPOINT: the service at S3_ENDPOINT=${silentEndpoint()} does not answer within 1 s (S3_TIMEOUT_MS), so S3_BUCKET="hgd-preflight" was never reached`,
    ]);
  });

  it('a host name that does not resolve blames S3_ENDPOINT', async () => {
    const endpoint = 'http://no-such-host.invalid:9000';
    const results = await runPreflight(
      loadConfig({ ...quiet, ...s3.env, S3_ENDPOINT: endpoint, S3_TIMEOUT_MS: '3000' }),
    );
    // Without a resolver at hand the lookup may hang instead of failing: no answer either way.
    expect(results.find((r) => r.check === 'object store')?.problems[0]).toMatch(
      /^S3_ENDPOINT: the service at S3_ENDPOINT=http:\/\/no-such-host\.invalid:9000 does not answer (\(its host name does not resolve\)|within 3 s \(S3_TIMEOUT_MS\)), so S3_BUCKET="hgd-preflight" was never reached$/,
    );
  });

  it('refused keys blame S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, and never show the secret', async () => {
    const results = await runPreflight(
      loadConfig({
        ...quiet,
        ...s3.env,
        S3_ACCESS_KEY_ID: 'NOT-THE-KEY',
        S3_SECRET_ACCESS_KEY: 'not-the-secret-9f8e7d',
      }),
    );
    const problems = results.find((r) => r.check === 'object store')?.problems ?? [];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: access to bucket "hgd-preflight" at http:\/\/127\.0\.0\.1:\d+ refused \(HTTP 403\)/,
    );
    expect(problems[0]).not.toContain('not-the-secret-9f8e7d');
  });

  it('a service answering what no bucket answers blames S3_ENDPOINT', async () => {
    const broken = createHttpServer((_, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(broken.address() as { port: number }).port}`;
      const results = await runPreflight(loadConfig({ ...quiet, ...s3.env, S3_ENDPOINT: endpoint }));
      expect(results.find((r) => r.check === 'object store')?.problems[0]).toMatch(
        new RegExp(
          `^S3_ENDPOINT: the service at S3_ENDPOINT=${endpoint} failed on S3_BUCKET="hgd-preflight": .*HTTP 500`,
        ),
      );
    } finally {
      broken.closeAllConnections();
      await new Promise((resolve) => broken.close(resolve));
    }
  });

  it('the CDN bucket behind a dead endpoint blames S3_ENDPOINT too, naming CDN_S3_BUCKET as not reached', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const results = await runPreflight(
      loadConfig({
        ...quiet,
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        CDN_S3_BUCKET: 'portal-www',
      }),
    );
    expect(results.find((r) => r.check === 'CDN bucket')?.problems).toEqual([
      `S3_ENDPOINT: the service at S3_ENDPOINT=${endpoint} does not answer (connection refused), so CDN_S3_BUCKET="portal-www" was never reached`,
    ]);
  });
});

describe('all together', () => {
  it('every failure is reported at once, one line each; startServer refuses before opening anything', async () => {
    const config = loadConfig({
      ...quiet,
      SITE_WORKER: 'external',
      APP_SECRET: 'z'.repeat(32),
      ...s3.env,
      S3_BUCKET: 'no-such-bucket',
    });
    const error = await assertPreflight(config).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as PreflightError).problems.map((line) => line.split(/[ :=]/)[0])).toEqual([
      'SITE_WORKER',
      'APP_SECRET',
      'S3_BUCKET',
    ]);
    await expect(startServer(config)).rejects.toThrow(PreflightError);
    expect(preflightLines(await runPreflight(config)).filter((line) => line.startsWith('FAIL'))).toHaveLength(3);
  });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm start -- --check` as a child process, with only the given settings. */
function runCheck(settings: Record<string, string>): Promise<Run> {
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? root, ...settings };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/start.ts', '--check'], {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start -- --check', () => {
  it('prints ok for each check and exits 0 on a working configuration, without building or serving', async () => {
    const run = await runCheck({ ...quiet, ...s3.env, STATIC_DIR: path.join(root, 'no-build-here') });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'ok    settings',
      'ok    secrets',
      'ok    database',
      'ok    object store',
    ]);
  }, 30_000);

  it('prints one line per failure and exits 1 on a broken configuration', async () => {
    const password = 'Sekr3t-Passw0rd';
    const run = await runCheck({
      ...quiet,
      ...s3.env,
      S3_BUCKET: 'no-such-bucket',
      DATABASE_URL: await deadDatabaseUrl(password),
      REBUILD_TOKEN: '0'.repeat(40),
      SMS_HTTP_KEY: 'gateway-key-123',
    });
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^FAIL {2}settings: SMS_HTTP_KEY without SMS_HTTP_URL/);
    expect(lines[1]).toMatch(/^FAIL {2}secrets: REBUILD_TOKEN is too weak/);
    expect(lines[2]).toMatch(/^FAIL {2}database: DATABASE_URL \(postgres:\/\/portal:\*\*\*@/);
    expect(lines[3]).toMatch(/^FAIL {2}object store: S3_BUCKET: bucket "no-such-bucket"/);
    expect(run.stdout).not.toContain(password);
  }, 30_000);

  it('a value config.ts refuses is reported as such, with exit 1', async () => {
    const run = await runCheck({ ...quiet, PORT: 'eighty', APP_SECRET: 'short' });
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      'FAIL  configuration: PORT="eighty": Invalid input: expected number, received NaN',
      'FAIL  configuration: APP_SECRET=[hidden]: must be at least 32 characters (e.g. `openssl rand -base64 32`)',
    ]);
  }, 30_000);
});
