/**
 * The static reading of a signed-in page's JavaScript (scripts/page-weight.ts `signedInScripts`),
 * which the CI budget applies to every signed-in page: on a small build written here, which files
 * count (module scripts, islands hydrating without interaction, their static imports, once each)
 * and which do not (islands waiting for interaction, code loaded by `import()`), and at what size.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptHeaderBytes, signedInScripts } from '../../scripts/page-weight.ts';

let dist: string;

const island = (client: string, component: string, value = 'true') =>
  `<astro-island uid="x" component-url="/_astro/${component}" component-export="default" renderer-url="/_astro/client.js" ssr client="${client}" opts="{&quot;name&quot;:&quot;X&quot;,&quot;value&quot;:${value}}"></astro-island>`;

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'hgd-signed-in-js-'));
  mkdirSync(join(dist, '_astro'));
  mkdirSync(join(dist, 'person', 'overview'), { recursive: true });
  const files: Record<string, string> = {
    'gate.js': 'import{a}from"./core.js";a();',
    'client.js': 'import{r}from"./react.js";export default r;',
    'react.js': `export const r=1;${'/*react*/'.repeat(100)}`,
    'core.js': 'import"./react.js";export const a=()=>import("./dialog.js");',
    'Overview.js': 'import{a}from"./core.js";import{t}from"./tables.js";export default a;',
    'tables.js': 'export const t=2;',
    'Bell.js': 'import{a}from"./core.js";export default a;',
    'Menu.js': 'import{m}from"./menu-only.js";export default m;',
    'menu-only.js': 'export const m=3;',
    'dialog.js': 'export default 4;',
  };
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dist, '_astro', name), code);
  // A precompressed copy is what the server sends: its size counts, not the file's.
  writeFileSync(join(dist, '_astro', 'react.js.br'), Buffer.alloc(300));
  writeFileSync(
    join(dist, 'person', 'overview', 'index.html'),
    `<html><head><script type="module" src="/_astro/gate.js"></script><script>inline()</script></head><body>
      ${island('load', 'Overview.js')}
      ${island('intent', 'Bell.js', '&quot;signed-in&quot;')}
      ${island('intent', 'Menu.js')}
    </body></html>`,
  );
});

afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('the JavaScript a signed-in page loads before any interaction', () => {
  it('counts module scripts and load-time islands with their static imports, each file once', () => {
    const reading = signedInScripts(dist, '/person/overview');
    expect(reading.files.map((file) => file.href).sort()).toEqual(
      [
        '/_astro/Bell.js',
        '/_astro/Overview.js',
        '/_astro/client.js',
        '/_astro/core.js',
        '/_astro/gate.js',
        '/_astro/react.js',
        '/_astro/tables.js',
      ].sort(),
    );
  });

  it('leaves out islands that wait for interaction and code loaded later with import()', () => {
    const hrefs = signedInScripts(dist, '/person/overview').files.map((file) => file.href);
    expect(hrefs).not.toContain('/_astro/Menu.js');
    expect(hrefs).not.toContain('/_astro/menu-only.js');
    expect(hrefs).not.toContain('/_astro/dialog.js');
  });

  it('weighs a file as sent (its brotli copy) and adds the headers of every response', () => {
    const reading = signedInScripts(dist, '/person/overview');
    expect(reading.files.find((file) => file.href === '/_astro/react.js')?.bytes).toBe(300);
    // Files under 256 bytes have no compressed copy: they go as they are.
    expect(reading.files.find((file) => file.href === '/_astro/tables.js')?.bytes).toBe('export const t=2;'.length);
    expect(reading.bytes).toBe(reading.files.reduce((sum, file) => sum + file.bytes, 0));
    expect(reading.transferBytes).toBe(reading.bytes + reading.files.length * scriptHeaderBytes);
  });
});
