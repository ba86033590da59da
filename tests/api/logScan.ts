/**
 * The log of the whole API test run, and what may never be in it (docs/privacy.md, "Logs"): a
 * whole mobile number, an identity or bank account number (any run of 12 digits or more), an SMS
 * text with its code, a demo password, a session cookie. Each test app logs at debug level to a
 * file of its worker (harness.ts); the global teardown scans every file and fails the run on a find.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { DestinationStream } from 'pino';
import { demoAccounts } from '../../src/server/seed/seed.ts';

/** The worker's log file in `dir`: appended synchronously, so nothing is lost when the worker ends. */
export function runLogDestination(dir: string): DestinationStream {
  const file = path.join(dir, `${process.pid}-${threadId}.ndjson`);
  return { write: (line: string) => appendFileSync(file, line) };
}

const forbidden: readonly { name: string; pattern: RegExp }[] = [
  { name: 'a mobile number', pattern: /(?<!\d)1[3-9]\d{9}(?!\d)/ },
  { name: 'an identity or account number', pattern: /\d{12,}|\d{17}[Xx]/ },
  { name: 'an SMS text with its code', pattern: /验证码\D{0,12}\d{4,8}|code is \d{4,8}/i },
  { name: 'a session cookie', pattern: /hgd_sid=\w/ },
  ...demoAccounts.map((account) => ({
    name: 'a demo password',
    pattern: new RegExp(account.password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  })),
];

/** Every string in a parsed log line, keys included (a value logged as a key is still logged). */
function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      strings(item, into);
    }
  return into;
}

/** Identifiers made of hex digits (request ids, hashes), whose digit runs are no one's number. */
const hexIdentifiers =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b/gi;

/** What a log line must not hold, named; [] for a clean line. Numbers (times, durations) are not text. */
export function personalDataIn(line: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = line;
  }
  const texts = strings(parsed).map((text) => text.replace(hexIdentifiers, '…'));
  return forbidden.filter(({ pattern }) => texts.some((text) => pattern.test(text))).map(({ name }) => name);
}

export interface LogScan {
  files: number;
  lines: number;
  findings: string[];
}

export function scanRunLogs(dir: string): LogScan {
  const scan: LogScan = { files: 0, lines: 0, findings: [] };
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.ndjson'))) {
    scan.files += 1;
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      scan.lines += 1;
      const found = personalDataIn(line);
      if (found.length > 0 && scan.findings.length < 20)
        scan.findings.push(`${found.join(', ')}: ${line.slice(0, 400)}`);
    }
  }
  return scan;
}
