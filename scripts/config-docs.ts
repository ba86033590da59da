/**
 * The documents of the configuration, written from src/server/configDocs.ts and config.ts's schema
 * (defaults and accepted values come from the schema itself):
 * - the README's variables table and docs/api-plumbing.md's list, each between
 *   `<!-- config:start -->` and `<!-- config:end -->` (the rest of those files is hand-written);
 * - .env.example, every variable commented out with its default.
 *
 *   node scripts/config-docs.ts           # writes the three
 *   node scripts/config-docs.ts --check   # writes nothing; exit 1 naming each stale file (npm run check:config)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envSchema } from '../src/server/config.ts';
import {
  groups,
  otherVariables,
  serverVariables,
  type Group,
  type OtherVariableDoc,
  type VariableDoc,
} from '../src/server/configDocs.ts';

export const projectRoot = path.resolve(import.meta.dirname, '..');

export const startMarker = '<!-- config:start -->';
export const endMarker = '<!-- config:end -->';
const generatedNote =
  '<!-- Generated from src/server/configDocs.ts by `npx node scripts/config-docs.ts`; edit there, not here. -->';

/** One variable as the documents show it. */
interface Entry {
  name: string;
  doc: VariableDoc | OtherVariableDoc;
  /** Markdown. */
  default: string;
  /** The schema's default as it would be written in the environment; undefined: none. */
  rawDefault: string | undefined;
  /** What the schema accepts, derived from it (plain text); '' when it says nothing useful. */
  values: string;
}

type JsonSchema = {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  format?: string;
};

const flagValues = ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'];

function valuesOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (schema.enum) {
    const isFlag =
      schema.enum.length === flagValues.length && flagValues.every((value) => schema.enum!.includes(value));
    return isFlag ? 'true or false (also 1/0, yes/no, on/off)' : schema.enum.join(', ');
  }
  if (schema.type === 'integer') {
    const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
    if (min !== undefined && max !== undefined) return `integer ${min}–${max}`;
    if (min !== undefined) return `integer ≥ ${min}`;
    return 'integer';
  }
  if (schema.format === 'uri') return 'http(s) URL';
  if (schema.minLength !== undefined && schema.minLength > 1) return `≥ ${schema.minLength} characters`;
  return '';
}

function schemaDefault(name: keyof typeof envSchema.shape): string | undefined {
  const parsed = envSchema.shape[name].safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  return String(parsed.data);
}

/** Every variable, grouped in the groups' order, the server's first within each group. */
export function entries(): Entry[] {
  const json = z.toJSONSchema(envSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, JsonSchema>;
  };
  const server: Entry[] = (Object.keys(serverVariables) as (keyof typeof serverVariables)[]).map((name) => {
    const doc = serverVariables[name];
    const rawDefault = schemaDefault(name);
    return {
      name,
      doc,
      default: doc.default ?? (rawDefault === undefined ? '—' : `\`${rawDefault}\``),
      rawDefault,
      values: valuesOf(json.properties[name]),
    };
  });
  const other: Entry[] = Object.entries(otherVariables).map(([name, doc]) => ({
    name,
    doc,
    default: doc.default,
    // A default that is one literal value is also what the .env.example line shows.
    rawDefault: /^`[^`]+`$/.test(doc.default) ? doc.default.slice(1, -1) : undefined,
    values: '',
  }));
  const order = Object.keys(groups) as Group[];
  return [...server, ...other].sort((a, b) => order.indexOf(a.doc.group) - order.indexOf(b.doc.group));
}

/** Documentation the schema and the table disagree on, or none. */
export function problems(documented: Partial<Record<string, VariableDoc>> = serverVariables): string[] {
  const found: string[] = [];
  for (const name of Object.keys(envSchema.shape)) {
    const doc = documented[name];
    if (!doc?.summary.trim()) found.push(`${name} is in the schema (src/server/config.ts) but has no documentation`);
  }
  for (const name of Object.keys(documented)) {
    if (!(name in envSchema.shape)) found.push(`${name} is documented as the server's but is not in its schema`);
  }
  for (const name of Object.keys(otherVariables)) {
    if (name in envSchema.shape) found.push(`${name} is in the schema and in otherVariables: document it once`);
  }
  return found;
}

// ——— Rendering ———

/** Links written from the repository's root, made relative to the document at `file`. */
function relink(markdown: string, file: string): string {
  const dir = path.posix.dirname(file);
  return markdown.replace(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g, (whole, target: string, anchor: string | undefined) => {
    if (/^[a-z]+:/.test(target)) return whole;
    return `](${path.posix.relative(dir, target) || path.posix.basename(target)}${anchor ?? ''})`;
  });
}

const cell = (markdown: string) => markdown.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function sentences(...parts: (string | undefined)[]): string {
  return parts
    .filter((part): part is string => Boolean(part))
    .reduce((text, part) => (text === '' ? part : `${text}${part.startsWith('(') ? ' ' : '. '}${part}`), '');
}

function grouped(all: Entry[]): [Group, Entry[]][] {
  return (Object.keys(groups) as Group[])
    .map((group): [Group, Entry[]] => [group, all.filter((entry) => entry.doc.group === group)])
    .filter(([, members]) => members.length > 0);
}

const readByOf = (entry: Entry) => ('readBy' in entry.doc ? `Read by ${entry.doc.readBy}` : undefined);

/** The README's table: the full meaning of each variable, one table per group. */
export function readmeTable(all: Entry[] = entries()): string {
  const blocks = grouped(all).map(([group, members]) =>
    [
      `**${groups[group]}**`,
      '',
      '| variable | default | meaning |',
      '|---|---|---|',
      ...members.map(
        (entry) =>
          `| \`${entry.name}\` | ${cell(entry.default)} | ${cell(sentences(entry.doc.summary, entry.doc.details, readByOf(entry)))} |`,
      ),
    ].join('\n'),
  );
  return relink(blocks.join('\n\n'), 'README.md');
}

/** docs/api-plumbing.md's list: what each accepts and where the code reads it. */
export function plumbingList(all: Entry[] = entries()): string {
  const rows = all.map((entry) => {
    const where = 'readBy' in entry.doc ? `read by ${entry.doc.readBy}` : entry.doc.code;
    const meaning = where ? `${entry.doc.summary} — ${where}` : entry.doc.summary;
    return `| \`${entry.name}\` | ${cell(entry.default)} | ${cell(entry.values)} | ${cell(meaning)} |`;
  });
  return relink(
    ['| variable | default | accepts | meaning |', '|---|---|---|---|', ...rows].join('\n'),
    'docs/api-plumbing.md',
  );
}

/** Markdown as a comment line shows it: no code marks, links as `text (target)`. */
function plain(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, text: string, target: string) =>
      text === target ? text : `${text} (${target})`,
    )
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]*)`/g, '$1');
}

function wrapped(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > 1 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** .env.example: every variable commented out, with its default and a one-line meaning. */
export function envExample(all: Entry[] = entries()): string {
  const head = [
    "# The portal's environment variables, every one commented out with its default (none of them is",
    '# needed for `npm start` on one machine). Generated from src/server/configDocs.ts by',
    '# `npx node scripts/config-docs.ts`; edit there. The full meanings: README.md, "Configuration".',
    '#',
    '# Nothing reads this file by itself: copy it to .env (git ignores that), uncomment what you set,',
    "# and give it to the process: `set -a; . ./.env; set +a; npm start`, systemd's",
    '# EnvironmentFile=, or `docker run --env-file .env`. Check the result with `npm start -- --check`.',
  ];
  const blocks = grouped(all).map(([group, members]) =>
    [
      `# ——— ${groups[group]} ———`,
      ...members.map((entry) => {
        // The assignment line shows a literal default, and an empty one "unset"; the rest is said.
        const literal = entry.rawDefault !== undefined && entry.default === `\`${entry.rawDefault}\``;
        const notes = [
          'readBy' in entry.doc ? `Read by ${plain(entry.doc.readBy)}.` : '',
          literal || entry.default === '—'
            ? ''
            : `Default: ${plain(entry.default.replace(/^— \((.*)\)$/, 'unset ($1)'))}.`,
          entry.values ? `Accepts: ${entry.values}.` : '',
        ].filter(Boolean);
        const summary = plain(entry.doc.summary);
        return [
          '',
          ...wrapped(`${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`),
          ...(notes.length > 0 ? wrapped(notes.join(' ')) : []),
          `# ${entry.name}=${entry.rawDefault ?? ''}`,
        ].join('\n');
      }),
    ].join('\n'),
  );
  return `${[head.join('\n'), ...blocks].join('\n\n')}\n`;
}

/** `text` with what stands between the markers replaced by `generated`. */
export function between(text: string, generated: string, file: string): string {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start)
    throw new Error(`${file}: no ${startMarker} … ${endMarker} to write the variables between`);
  return `${text.slice(0, start + startMarker.length)}\n${generatedNote}\n\n${generated}\n\n${text.slice(end)}`;
}

export interface ConfigDocument {
  /** Relative to the project's root. */
  file: string;
  /** What the file should hold, given what it holds now. */
  expected(current: string): string;
}

export const documents: ConfigDocument[] = [
  { file: 'README.md', expected: (current) => between(current, readmeTable(), 'README.md') },
  {
    file: 'docs/api-plumbing.md',
    expected: (current) => between(current, plumbingList(), 'docs/api-plumbing.md'),
  },
  { file: '.env.example', expected: () => envExample() },
];

function read(file: string): string {
  try {
    return readFileSync(path.join(projectRoot, file), 'utf8');
  } catch {
    return '';
  }
}

/** The documents whose text differs from what they should hold, each with why. */
export function staleDocuments(readText: (file: string) => string = read): { file: string; reason: string }[] {
  return documents.flatMap(({ file, expected }) => {
    const current = readText(file);
    try {
      return expected(current) === current ? [] : [{ file, reason: `${file} is stale` }];
    } catch (error) {
      return [{ file, reason: error instanceof Error ? error.message : String(error) }];
    }
  });
}

if (import.meta.main) {
  const found = problems();
  if (found.length > 0) {
    for (const problem of found) console.error(`config-docs: ${problem}`);
    process.exit(1);
  }
  if (process.argv.includes('--check')) {
    const stale = staleDocuments();
    for (const { reason } of stale)
      console.error(
        `config-docs: ${reason}; run \`npx node scripts/config-docs.ts\` (src/server/configDocs.ts is the source)`,
      );
    process.exitCode = stale.length > 0 ? 1 : 0;
  } else {
    for (const { file, expected } of documents) {
      const current = read(file);
      const next = expected(current);
      if (next !== current) {
        writeFileSync(path.join(projectRoot, file), next);
        console.log(`config-docs: wrote ${file}`);
      }
    }
  }
}
