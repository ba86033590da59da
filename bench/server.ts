/**
 * The servers a benchmark measures: each runs in its own process (so its figures are not the
 * benchmark's own CPU), is waited for until it answers, and is called as the browser client calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** `node <args>` with these environment variables added; its stderr shows in the benchmark's. */
export function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  return spawn('node', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A port free right now (the OS picks it), so parallel runs and other servers never collide. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until `ready` accepts an answer. A fresh server migrates and seeds its database
 * first, so callers allow for a busy machine in `timeoutMs`.
 */
export async function waitFor(
  url: string,
  timeoutMs: number,
  ready: (response: Response) => boolean = (response) => response.ok,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (ready(await fetch(url))) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The headers of the browser client's form posts (the API's CSRF checks want both). */
export function formPostHeaders(origin: string): Record<string, string> {
  return { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest', Origin: origin };
}

/** Logs in through the API as the browser does; returns the session cookie (`hgd_sid=…`). */
export async function signIn(origin: string, userName: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/front/system/login`, {
    method: 'POST',
    headers: formPostHeaders(origin),
    body: new URLSearchParams({ userName, password, deviceId: 'hgdweb', appCode: 'hgd' }).toString(),
  });
  const cookie = response.headers
    .getSetCookie()
    .find((value) => value.startsWith('hgd_sid='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`login of ${userName} failed: ${await response.text()}`);
  return cookie;
}
