/**
 * `npm run keys -- <command>`: the data keys of the encrypted columns (src/server/fieldEncryption.ts)
 * from the server's shell. It opens the database as the server does (src/server/runtime.ts) and
 * unwraps the keys with the same root secret (APP_SECRET, or the one kept in the database).
 */
import { parseArgs } from 'node:util';
import type { RotationReport } from '../src/server/fieldEncryption.ts';

export interface KeysCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The environment the configuration is read from (DATA_DIR, DATABASE_URL, APP_SECRET…). */
  env: Record<string, string | undefined>;
}

const failed = 1;
const misused = 2;

export const usage = `Usage: npm run keys -- <command>

The data keys that encrypt bank account numbers at rest. Each is kept wrapped by a key derived
from APP_SECRET (or the root secret the database keeps when APP_SECRET is unset).

Commands:
  rotate    make a new data key, encrypt every value again with it, delete the older keys.
            Safe while servers run: each seals with the newest key from then on. A key a value
            written during the rotation still needs is kept, and named; run rotate again.
  status    how many values each data key encrypts

Options:
  -h, --help   this text

The database is the server's: DATA_DIR (embedded, only while no server uses it) or DATABASE_URL.
`;

export function rotationText(report: RotationReport): string {
  const lines = [
    `New data key ${report.keyId}.`,
    ...Object.entries(report.resealed).map(([column, count]) => `${column}: ${count} value(s) encrypted again`),
    report.deleted.length ? `Deleted older key(s): ${report.deleted.join(', ')}.` : 'No older key to delete.',
    ...(report.kept.length
      ? [`Kept key(s) ${report.kept.join(', ')}: values written meanwhile still use them; run rotate again.`]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}

export async function main(argv: readonly string[], io: KeysCliIo): Promise<number> {
  let command: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.stdout.write(usage);
      return 0;
    }
    command = positionals[0];
    if (positionals.length !== 1 || (command !== 'rotate' && command !== 'status'))
      throw new Error(command ? `Unknown command "${positionals.join(' ')}".` : 'Name a command.');
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return misused;
  }

  try {
    const [{ loadConfig }, { openRuntime }, { createFieldCipher, fieldKeyUse, rotateFieldKeys }, { loadedKeys }] =
      await Promise.all([
        import('../src/server/config.ts'),
        import('../src/server/runtime.ts'),
        import('../src/server/fieldEncryption.ts'),
        import('../src/server/secrets.ts'),
      ]);
    const runtime = await openRuntime(loadConfig(io.env), null);
    try {
      const keys = loadedKeys(runtime.keys);
      if (command === 'status') {
        const use = await fieldKeyUse(runtime.db);
        io.stdout.write(
          use.length === 0
            ? 'No data key yet: one is made with the first value encrypted.\n'
            : use
                .map((key) => `key ${key.id} (made ${key.createdAt.toISOString()}): ${key.values} value(s)\n`)
                .join(''),
        );
        return 0;
      }
      io.stdout.write(rotationText(await rotateFieldKeys(runtime.db, keys, createFieldCipher(keys))));
      return 0;
    } finally {
      await runtime.close();
    }
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return failed;
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
