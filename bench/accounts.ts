/**
 * `npm run bench -- accounts`: how fast the accounts API logs people in and answers
 * session-checked reads, on the real server in its own process (PGlite, a fresh data directory).
 *
 * - argon2id alone, in this process: hash and verify times (the floor under every login);
 * - POST /api/front/system/login: throughput and latency; every request comes from its own
 *   address (X-Forwarded-For, the server started with TRUST_PROXY=1) so the per-address limit,
 *   which would rightly stop one client after 30 tries, does not end the measurement; every
 *   answer's envelope code is checked, not only the HTTP status;
 * - GET /api/front/user/currentUser with a session cookie: session lookup + user + enterprise.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hashPassword, verifyPassword } from '../src/server/password.ts';
import { formPostHeaders, startProcess, waitFor } from './server.ts';

const port = 4423;
const origin = `http://127.0.0.1:${port}`;

async function argonFigures(): Promise<{ hashMs: number; verifyMs: number }> {
  const rounds = 10;
  let started = performance.now();
  let hash = '';
  for (let i = 0; i < rounds; i++) hash = await hashPassword(`Bench${i}2026`);
  const hashMs = (performance.now() - started) / rounds;
  started = performance.now();
  for (let i = 0; i < rounds; i++) await verifyPassword(hash, `Bench${rounds - 1}2026`);
  return { hashMs, verifyMs: (performance.now() - started) / rounds };
}

const loginBody = 'userName=demo_person&password=Person2025&deviceId=hgdweb&appCode=hgd';
const postHeaders = formPostHeaders(origin);

function line(name: string, r: autocannon.Result): string {
  return `${name.padEnd(44)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   (${r.requests.total} requests)`;
}

async function loginLoad(
  connections: number,
  duration: number,
): Promise<{ result: autocannon.Result; refused: number }> {
  let address = 0;
  let refused = 0;
  const result = await autocannon({
    url: `${origin}/api/front/system/login`,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        body: loginBody,
        setupRequest: (request) => {
          address += 1;
          const ip = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
          return { ...request, headers: { ...postHeaders, 'X-Forwarded-For': ip } };
        },
        onResponse: (_status, body) => {
          if (!body.startsWith('{"code":200,')) refused += 1;
        },
      },
    ],
  });
  return { result, refused };
}

export async function benchAccounts(): Promise<void> {
  const argon = await argonFigures();
  const dataDir = mkdtempSync(join(tmpdir(), 'hgd-bench-accounts-'));
  const portal = startProcess(['src/server/main.ts'], {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    TRUST_PROXY: '1',
    STATIC_DIR: dataDir,
  });
  try {
    await waitFor(`${origin}/api/health`, 60_000);
    const first = await fetch(`${origin}/api/front/system/login`, {
      method: 'POST',
      headers: { ...postHeaders, 'X-Forwarded-For': '10.255.255.1' },
      body: loginBody,
    });
    const cookie = first.headers
      .getSetCookie()
      .find((value) => value.startsWith('hgd_sid='))
      ?.split(';')[0];
    if (!cookie) throw new Error(`login failed: ${await first.text()}`);

    await loginLoad(4, 2); // warm-up
    const logins = await loginLoad(8, 8);
    const single = await loginLoad(1, 5);

    const readUrl = `${origin}/api/front/user/currentUser`;
    await autocannon({ url: readUrl, connections: 20, duration: 2, headers: { Cookie: cookie } });
    let readRefused = 0;
    const read = await autocannon({
      url: readUrl,
      connections: 50,
      duration: 8,
      headers: { Cookie: cookie },
      requests: [{ onResponse: (_status, body) => void (body.startsWith('{"code":200,') || (readRefused += 1)) }],
    });

    console.log('\n## accounts: login and session-checked reads (server in its own process, PGlite)');
    // Figures depend on what else runs: say how busy the machine was.
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)`,
    );
    console.log(
      `argon2id (m=19456 KiB, t=2, p=1) in-process: hash ${argon.hashMs.toFixed(1)} ms, verify ${argon.verifyMs.toFixed(1)} ms`,
    );
    console.log(line('POST login, 8 connections, 8 s', logins.result));
    console.log(line('POST login, 1 connection, 5 s', single.result));
    console.log(line('GET currentUser (session), 50 conn., 8 s', read));
    const refusals = logins.refused + single.refused + readRefused;
    console.log(
      `answers other than code 200: ${refusals}${refusals ? ' (the figures above include refusals: check limits)' : ''}`,
    );
    const errors = logins.result.errors + logins.result.non2xx + read.errors + read.non2xx;
    if (errors) console.log(`transport errors or non-2xx: ${errors}`);
  } finally {
    portal.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
