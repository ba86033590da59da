/**
 * `npm run audit -- <command>`: checks the audit log's hash chain (src/server/services/auditChain.ts)
 * from the server's shell. It opens the database as the server does (src/server/runtime.ts) and
 * takes the chain's key from the same root secret (APP_SECRET, or the one kept in the database).
 */
import { parseArgs } from 'node:util';
import type { ChainFinding, ChainHead, ChainReport } from '../src/server/services/auditChain.ts';
import type { Database } from '../src/server/db/client.ts';

export interface AuditCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The environment the configuration is read from (DATA_DIR, DATABASE_URL, APP_SECRET…). */
  env: Record<string, string | undefined>;
}

/** Exit codes: the chain is broken (or the database could not be read), and a misused command line. */
const broken = 1;
const misused = 2;

export const usage = `Usage: npm run audit -- <command>

The audit log's tamper-evident chain: every entry carries a keyed hash of itself and of the entry
before it.

Commands:
  verify [--head <seq>:<hash>]   walk the whole chain; name every changed, inserted or deleted
                                 entry. With --head (a head noted earlier: by \`head\`, or the
                                 server log's "audit chain head" line), also find newest entries
                                 deleted since then. Exit code 0: intact; 1: broken.
  head                           print the chain's newest entry as <seq>:<hash>, to keep apart
                                 from the database (a ticket, a second log)

Options:
  -h, --help                     this text

The database is the server's: DATA_DIR (embedded, only while no server uses it) or DATABASE_URL.
`;

class Misuse extends Error {}

export function parseHead(text: string): ChainHead {
  const match = /^(\d+):([0-9a-f]{64})$/.exec(text.trim());
  if (!match) throw new Misuse(`--head must be <seq>:<hash> (a number, a colon, 64 hex digits), not "${text}"`);
  return { seq: Number(match[1]), hash: match[2] ?? '' };
}

export function findingText(finding: ChainFinding): string {
  switch (finding.kind) {
    case 'changed':
      return `changed: entry id ${finding.id} (seq ${finding.seq}) does not match its hash`;
    case 'deleted': {
      const [first, last] = finding.missing ?? [0, 0];
      return first === last ? `deleted: the entry at seq ${first}` : `deleted: the entries at seq ${first}–${last}`;
    }
    case 'inserted':
      return finding.seq === undefined
        ? `inserted: entry id ${finding.id} has no place in the chain`
        : `inserted: entry id ${finding.id} (seq ${finding.seq}) is not linked to the entry before it`;
    case 'truncated':
      return `deleted: the newest entries, from the noted head at seq ${finding.seq}`;
  }
}

export function reportText(report: ChainReport): string {
  const lines = [
    `${report.checked} chained entries checked; head ${report.head.seq}:${report.head.hash}`,
    ...(report.unchained > 0 ? [`${report.unchained} entries written before the chain began are not covered`] : []),
    ...report.findings.map(findingText),
    report.findings.length === 0
      ? 'The chain is intact.'
      : `The chain is broken: ${report.findings.length} finding(s).`,
  ];
  return `${lines.join('\n')}\n`;
}

export async function main(argv: readonly string[], io: AuditCliIo): Promise<number> {
  let command: string | undefined;
  let expectedHead: ChainHead | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { head: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.stdout.write(usage);
      return 0;
    }
    command = positionals[0];
    if (positionals.length !== 1 || (command !== 'verify' && command !== 'head'))
      throw new Misuse(command ? `Unknown command "${positionals.join(' ')}".` : 'Name a command.');
    if (values.head !== undefined) {
      if (command !== 'verify') throw new Misuse('--head goes with verify.');
      expectedHead = parseHead(values.head);
    }
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return misused;
  }

  try {
    const [{ loadConfig }, { openRuntime }, { chainHead, verifyChain }] = await Promise.all([
      import('../src/server/config.ts'),
      import('../src/server/runtime.ts'),
      import('../src/server/services/auditChain.ts'),
    ]);
    const runtime = await openRuntime(loadConfig(io.env), null);
    try {
      const db: Database = runtime.db;
      if (command === 'head') {
        const head = await chainHead(db);
        io.stdout.write(`${head.seq}:${head.hash}\n`);
        return 0;
      }
      const report = await verifyChain(db, runtime.keys.auditChain, expectedHead);
      io.stdout.write(reportText(report));
      return report.findings.length === 0 ? 0 : broken;
    } finally {
      await runtime.close();
    }
  } catch (error) {
    // Configuration, a database in use, a database that cannot be reached: their own messages.
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return broken;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.filename === process.argv[1];
if (isMain) {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
}
