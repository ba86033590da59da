/**
 * The configuration's documents (scripts/config-docs.ts): every variable of the schema has its
 * documentation in src/server/configDocs.ts, every variable the product reads is documented, and
 * the README's table, docs/api-plumbing.md's list and .env.example are what the generator writes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  documents,
  endMarker,
  entries,
  envExample,
  plumbingList,
  problems,
  projectRoot,
  readmeTable,
  staleDocuments,
  startMarker,
} from '../../scripts/config-docs.ts';
import { envSchema } from '../../src/server/config.ts';
import { otherVariables, serverVariables } from '../../src/server/configDocs.ts';

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');

const envRead = /process\.env(?:\[['"]([A-Z0-9_]+)['"]\]|\.([A-Z0-9_]+))/g;

/** The names read as `process.env['NAME']` or `process.env.NAME` in the files under `dir`. */
function environmentReads(dir: string): Set<string> {
  const names = new Set<string>();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== 'migrations') for (const found of environmentReads(file)) names.add(found);
    } else if (/\.(ts|tsx|astro|mjs)$/.test(name)) {
      for (const match of readFileSync(file, 'utf8').matchAll(envRead)) names.add(match[1] ?? match[2]!);
    }
  }
  return names;
}

describe('the documentation of every variable', () => {
  it('covers the schema exactly, once', () => {
    expect(problems()).toEqual([]);
    expect(Object.keys(serverVariables).sort()).toEqual(Object.keys(envSchema.shape).sort());
    for (const [name, doc] of Object.entries({ ...serverVariables, ...otherVariables }))
      expect(doc.summary.trim(), name).not.toBe('');
  });

  it('names a variable of the schema that has none', () => {
    const { METRICS_TOKEN: _missing, ...withoutOne } = serverVariables;
    expect(problems(withoutOne)).toEqual([
      'METRICS_TOKEN is in the schema (src/server/config.ts) but has no documentation',
    ]);
  });

  it('covers every variable the site and the server read from their environment', () => {
    const read = environmentReads(path.join(projectRoot, 'src'));
    for (const match of readFileSync(path.join(projectRoot, 'astro.config.mjs'), 'utf8').matchAll(envRead))
      read.add(match[1] ?? match[2]!);
    const documented = new Set([...Object.keys(serverVariables), ...Object.keys(otherVariables)]);
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('takes defaults and accepted values from the schema', () => {
    const byName = new Map(entries().map((entry) => [entry.name, entry]));
    expect(byName.get('PORT')).toMatchObject({ default: '`4321`', rawDefault: '4321', values: 'integer 0–65535' });
    expect(byName.get('WORKER_STOP_SECONDS')).toMatchObject({ default: '`60`', values: 'integer 0–3600' });
    expect(byName.get('TRUST_PROXY')).toMatchObject({ default: '`false`', rawDefault: 'false' });
    expect(byName.get('BANK_PROVIDER')?.default).toBe('`sandbox` locally; `none` when `PUBLIC_ORIGIN` is set');
    expect(byName.get('DATABASE_URL')?.rawDefault).toBeUndefined();
  });
});

describe('the generated documents', () => {
  it('each holds every variable', () => {
    const names = entries().map((entry) => entry.name);
    for (const text of [readmeTable(), plumbingList()])
      for (const name of names) expect(text, name).toContain(`| \`${name}\` |`);
    for (const name of names) expect(envExample(), name).toMatch(new RegExp(`^# ${name}=`, 'm'));
  });

  it('link relative to the document they are in', () => {
    expect(readmeTable()).toContain('](docs/deployment.md#the-cdn)');
    expect(plumbingList()).not.toContain('](docs/');
  });

  it('are up to date (else: npx node scripts/config-docs.ts)', () => {
    expect(staleDocuments()).toEqual([]);
  });

  it('a document missing a variable is stale, and one without its markers is named', () => {
    const withoutRow = (file: string) =>
      read(file)
        .split('\n')
        .filter((line) => !line.startsWith('| `METRICS_TOKEN` |') && !line.startsWith('# METRICS_TOKEN='))
        .join('\n');
    expect(staleDocuments(withoutRow).map(({ file }) => file)).toEqual(documents.map(({ file }) => file));
    const withoutMarkers = (file: string) => read(file).replace(startMarker, '').replace(endMarker, '');
    expect(staleDocuments(withoutMarkers).map(({ reason }) => reason)).toEqual([
      `README.md: no ${startMarker} … ${endMarker} to write the variables between`,
      `docs/api-plumbing.md: no ${startMarker} … ${endMarker} to write the variables between`,
    ]);
  });
});
