/**
 * `npm run user -- <command>`: staff accounts from the server's shell — a deployment's first
 * administrator (it starts with no account at all), a locked-out administrator's second factor, an
 * account to disable at once. The same functions, rules and audit rows as the administrator's page /ops/staff
 * (src/server/services/staffAccounts.ts); the command line acts as nobody signed in and its audit
 * rows say `detail.via: 'cli'`.
 *
 * It opens the database as the server does (src/server/runtime.ts: DATA_DIR's embedded PGlite, or
 * DATABASE_URL; migrated, and seeded when empty, by the same configuration). PGlite allows one
 * process at a time: beside a server on the same DATA_DIR it refuses (db/dataDirLock.ts) — stop
 * the server first, or run against PostgreSQL, which both share.
 *
 * Passwords never come from the command line (they would stay in the shell's history and in
 * `ps`): an interactive prompt that does not echo, or the first line of standard input.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { matchLocale, translator, type Locale } from '../src/lib/i18n/index.ts';
import { localizeIssues } from '../src/lib/schemas/issues.ts';
import {
  createStaffInput,
  grantableRoles,
  newStaffFields,
  type GrantableRole,
  type StaffRowData,
} from '../src/lib/schemas/staff.ts';
import { controlCharacterIssues } from '../src/lib/schemas/text.ts';
import { ApiError } from '../src/server/apiError.ts';
import { isMessageKey } from '../src/server/envelope.ts';
import type { Database } from '../src/server/db/client.ts';

export interface CliInput {
  /** Whether a person is typing (then the password is asked for without echo). */
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'data', listener: (chunk: string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export interface CliIo {
  stdin: CliInput;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The environment the configuration is read from (DATA_DIR, DATABASE_URL…) and the messages' language (LC_ALL, LANG). */
  env: Record<string, string | undefined>;
}

/** Exit codes: refused or bad input, and a command line that names no known command or option. */
const refused = 1;
const misused = 2;

export const usage = `Usage: npm run user -- <command> [arguments]

Staff accounts (administrators, operators, editors, auditors, partner staff), with the rules and
audit of /ops/staff. An account holds the roles of one duty: administration (admin), operation
(operator, editor) or audit (auditor).
<user> is a user name (any case) or a mobile number.

Commands:
  create --user-name <name> --mobile <11 digits> --name <display name>
         --role admin|operator|editor|auditor|partner [--institution <code> --emp-id <staff number>]
                               a new account; the password is asked for (not echoed) or read
                               from the first line of standard input. A partner needs its
                               institution's code and a staff number there.
  grant <user> <role>            give admin, operator, editor or auditor (other roles stay;
                                 never one of another duty)
  revoke <user> <role>           take it away (never the last active admin's)
  disable <user>                 refuse its sign-ins and end its sessions
  enable <user>                  allow its sign-ins again
  reset-second-factor <user>     delete its authenticator and recovery codes, end its sessions
  list [keyword]                 staff accounts; with a keyword, any user whose name,
                                 user name or mobile contains it

Options:
  -h, --help                     this text

The database is the server's: DATA_DIR (embedded, only while no server uses it) or
DATABASE_URL. Messages follow LC_ALL / LANG (zh-CN, en-US, zh-TW, id-ID, pt-BR).

Examples:
  npm run user -- create --user-name admin_li --mobile 13900000001 --name 李娜 --role admin
  printf '%s\\n' "$PASSWORD" | npm run user -- create --user-name bank_gd01 --mobile 13900000002 \\
      --name 王伟 --role partner --institution ICBC44 --emp-id GD0101
  npm run user -- reset-second-factor admin_li
`;

/** The command line's option for each field, so a message names what was typed. */
const optionOf: Record<string, string> = {
  userName: '--user-name',
  mobile: '--mobile',
  name: '--name',
  role: '--role',
  institutionCode: '--institution',
  empId: '--emp-id',
  password: 'password',
};

function localeFrom(env: Record<string, string | undefined>): Locale {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value) return matchLocale(value.split('.')[0] ?? '') ?? 'en-US';
  }
  return 'en-US';
}

class Refusal extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = refused) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The input checked against a shared schema; every problem as one line naming its option. */
function checked<S extends z.core.$ZodType>(schema: S, input: Record<string, unknown>, locale: Locale): z.output<S> {
  const unclean = controlCharacterIssues(input);
  const result = unclean.length ? undefined : z.safeParse(schema, input);
  if (result?.success) return result.data;
  const errors = localizeIssues(result?.error.issues ?? unclean, {
    input,
    schema,
    t: translator(locale),
    hasKey: isMessageKey,
  });
  throw new Refusal(errors.map((error) => `${optionOf[error.field] ?? error.field}: ${error.message}`).join('\n'));
}

/** A service refusal (ApiError) in words, naming the option when it is about one. */
function refusalText(error: ApiError, locale: Locale): string {
  const errors = (error.data as { errors?: { field: string; message: string }[] } | undefined)?.errors;
  if (errors?.length) return errors.map((item) => `${optionOf[item.field] ?? item.field}: ${item.message}`).join('\n');
  const text = error.text ?? translator(locale)(error.key, error.vars);
  return error.field === undefined ? text : `${optionOf[error.field] ?? error.field}: ${text}`;
}

/** Reads a line without echoing it (a person at a terminal). */
function promptHidden(io: CliIo, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { stdin } = io;
    io.stderr.write(question);
    let typed = '';
    const done = (finish: () => void) => {
      stdin.setRawMode?.(false);
      stdin.removeListener('data', onData);
      stdin.pause();
      io.stderr.write('\n');
      finish();
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n' || character === '\u0004') return done(() => resolve(typed));
        if (character === '\u0003') return done(() => reject(new Refusal('cancelled')));
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    stdin.setEncoding('utf8');
    stdin.setRawMode?.(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}

/** The first line of standard input (a password piped in). */
function firstLine(io: CliIo): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    io.stdin.setEncoding('utf8');
    io.stdin.on('data', (chunk) => {
      text += chunk;
    });
    io.stdin.on('end', () => resolve(text.split(/\r?\n/)[0] ?? ''));
    io.stdin.resume();
  });
}

async function readPassword(io: CliIo): Promise<string> {
  if (!io.stdin.isTTY) return firstLine(io);
  const password = await promptHidden(io, 'Password: ');
  const again = await promptHidden(io, 'Repeat the password: ');
  if (password !== again) throw new Refusal('The two passwords differ; nothing was created.');
  return password;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function listText(rows: readonly StaffRowData[]): string {
  if (rows.length === 0) return 'No accounts.';
  return table([
    ['user name', 'name', 'mobile', 'roles', 'status', 'second factor', 'institutions', 'last sign-in'],
    ...rows.map((row) => [
      row.userName,
      row.name,
      row.mobile,
      row.roles.join(','),
      row.status,
      row.secondFactor,
      row.institutions.map((institution) => `${institution.code}/${institution.empId}`).join(',') || '-',
      row.lastLoginAt ?? 'never',
    ]),
  ]);
}

function grantable(role: string | undefined): role is GrantableRole {
  return (grantableRoles as readonly string[]).includes(role ?? '');
}

/** Runs one command; resolves its exit code (0 done, 1 refused or bad input, 2 not a command line this knows). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const locale = localeFrom(io.env);
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${usage}`);
    return misused;
  }
  const { command, positionals, values } = parsed;
  if (values.help || command === undefined || command === 'help') {
    (command === undefined && !values.help ? io.stderr : io.stdout).write(usage);
    return command === undefined && !values.help ? misused : 0;
  }
  const arity: Record<string, [number, number]> = {
    create: [0, 0],
    grant: [2, 2],
    revoke: [2, 2],
    disable: [1, 1],
    enable: [1, 1],
    'reset-second-factor': [1, 1],
    list: [0, 1],
  };
  const expected = arity[command];
  if (!expected) {
    io.stderr.write(`Unknown command "${command}".\n\n${usage}`);
    return misused;
  }
  if (positionals.length < expected[0] || positionals.length > expected[1]) {
    io.stderr.write(
      `"${command}" takes ${expected[0] === expected[1] ? expected[0] : `${expected[0]} to ${expected[1]}`} argument(s).\n\n${usage}`,
    );
    return misused;
  }
  const createOptions = ['user-name', 'mobile', 'name', 'role', 'institution', 'emp-id'] as const;
  const stray = createOptions.filter((name) => values[name] !== undefined);
  if (command !== 'create' && stray.length > 0) {
    io.stderr.write(`"${command}" takes no --${stray.join(', --')}.\n\n${usage}`);
    return misused;
  }

  try {
    // Everything typed is checked before the database is opened: bad input changes nothing.
    let work: (db: Database) => Promise<string>;
    const {
      createStaffAccount,
      disableAccount,
      enableAccount,
      findStaffUserId,
      grantRole,
      resetSecondFactor,
      revokeRole,
      staffPage,
      staffRowOf,
    } = await import('../src/server/services/staffAccounts.ts');
    const actor = { userId: null, ip: null, locale, via: 'cli' as const };
    const target = positionals[0] ?? '';
    const checkedRole = (role: string | undefined): GrantableRole => {
      if (grantable(role)) return role;
      throw new Refusal(
        `role: "${role ?? ''}" is not one of ${grantableRoles.join(', ')} (a partner comes with an institution: create --role partner, or /ops/staff)`,
      );
    };
    if (command === 'create') {
      const fields = {
        userName: values['user-name'],
        mobile: values.mobile,
        name: values.name,
        role: values.role,
        ...(values.institution === undefined ? {} : { institutionCode: values.institution }),
        ...(values['emp-id'] === undefined ? {} : { empId: values['emp-id'] }),
      };
      checked(newStaffFields, fields, locale);
      const input = checked(createStaffInput, { ...fields, password: await readPassword(io) }, locale);
      work = async (db) => {
        const id = await createStaffAccount(db, actor, input);
        const row = await staffRowOf(db, id, null);
        return `Created ${row.userName} (${row.roles.join(', ')}), id ${row.id}.`;
      };
    } else if (command === 'grant' || command === 'revoke') {
      const role = checkedRole(positionals[1]);
      work = async (db) => {
        const userId = await findStaffUserId(db, target);
        await (command === 'grant' ? grantRole : revokeRole)(db, actor, userId, role);
        const row = await staffRowOf(db, userId, null);
        return `${command === 'grant' ? 'Granted' : 'Revoked'} ${role} ${command === 'grant' ? 'to' : 'from'} ${row.userName}; roles now: ${row.roles.join(', ')}.`;
      };
    } else if (command === 'disable' || command === 'enable') {
      work = async (db) => {
        const userId = await findStaffUserId(db, target);
        await (command === 'disable' ? disableAccount : enableAccount)(db, actor, userId);
        const row = await staffRowOf(db, userId, null);
        return command === 'disable'
          ? `Disabled ${row.userName}; its sessions have ended.`
          : `Enabled ${row.userName}.`;
      };
    } else if (command === 'reset-second-factor') {
      work = async (db) => {
        const userId = await findStaffUserId(db, target);
        await resetSecondFactor(db, actor, userId);
        const row = await staffRowOf(db, userId, null);
        return `Reset the second factor of ${row.userName}; its sessions have ended and it sets one up again at the next sign-in.`;
      };
    } else {
      work = async (db) => {
        const rows: StaffRowData[] = [];
        for (let current = 1; ; current += 1) {
          const page = await staffPage(db, null, {
            pager: { current, pageSize: 100 },
            ...(target ? { search: { keyword: target } } : {}),
          });
          rows.push(...page.result);
          if (rows.length >= page.totalCount || page.result.length === 0) break;
        }
        return listText(rows);
      };
    }

    const [{ loadConfig }, { openRuntime }] = await Promise.all([
      import('../src/server/config.ts'),
      import('../src/server/runtime.ts'),
    ]);
    const runtime = await openRuntime(loadConfig(io.env), null);
    try {
      io.stdout.write(`${await work(runtime.db)}\n`);
    } finally {
      await runtime.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof Refusal) {
      io.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof ApiError) {
      io.stderr.write(`${refusalText(error, locale)}\n`);
      return refused;
    }
    // Configuration, a database in use, a database that cannot be reached: their own messages.
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return refused;
  }
}

function parseCommandLine(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'user-name': { type: 'string' },
      mobile: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      institution: { type: 'string' },
      'emp-id': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  return { command, positionals: rest, values };
}

const isMain = process.argv[1] !== undefined && import.meta.filename === process.argv[1];
if (isMain) {
  process.exitCode = await main(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
}
