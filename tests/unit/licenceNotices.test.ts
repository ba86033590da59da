/**
 * licences.txt (src/integrations/licences.ts): which packages of the client chunks it names, and
 * that its text depends only on them. tests/build/incremental.test.ts reads the file of a real build.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { licenceNotices, packageDirOf, packagesOfChunks, readPackage } from '../../src/integrations/licences.ts';

const modules = path.resolve(import.meta.dirname, '../../node_modules');

describe('packagesOfChunks', () => {
  it('names the packages whose code is in a chunk, once each, and nothing of ours or tree-shaken away', () => {
    const packages = packagesOfChunks([
      {
        modules: {
          [path.join(modules, 'nanostores/atom/index.js')]: { renderedLength: 812 },
          [path.join(modules, 'nanostores/map/index.js')]: { renderedLength: 420 },
          // Imported, but nothing of it left after tree-shaking.
          [path.join(modules, 'hono/dist/index.js')]: { renderedLength: 0 },
          [path.resolve(import.meta.dirname, '../../src/lib/paths.ts')]: { renderedLength: 300 },
          '\0vite/preload-helper.js': { renderedLength: 120 },
        },
      },
      // A module under a nested package.json without a name belongs to the package above it.
      { modules: { [`${path.join(modules, 'zod/v4/mini/index.js')}?commonjs-proxy`]: { renderedLength: 5000 } } },
    ]);
    expect(packages.map((entry) => entry.name).sort()).toEqual(['nanostores', 'zod']);
    const zod = packages.find((entry) => entry.name === 'zod');
    expect(zod).toMatchObject({ licence: 'MIT', where: 'the scripts (client chunks)' });
    expect(zod?.text).toMatch(/Permission is hereby granted/);
  });

  it('finds no package for a file outside node_modules', () => {
    expect(packageDirOf(path.resolve(import.meta.dirname, 'licenceNotices.test.ts'))).toBeUndefined();
  });
});

describe('licenceNotices', () => {
  it('lists every package with its version and licence, then each text, sorted whatever the order found', () => {
    const react = readPackage(path.join(modules, 'react'), 'the scripts (client chunks)');
    const nanostores = readPackage(path.join(modules, 'nanostores'), 'the scripts (client chunks)');
    const text = licenceNotices([react, nanostores]);
    expect(text).toBe(licenceNotices([nanostores, react]));
    expect(text).toContain(`  nanostores ${nanostores.version}  MIT  — in the scripts (client chunks)`);
    expect(text.indexOf(`\nnanostores ${nanostores.version}\nLicence: MIT`)).toBeLessThan(
      text.indexOf(`\nreact ${react.version}\nLicence: MIT`),
    );
    expect(text).toContain('Copyright (c) Meta Platforms, Inc. and affiliates.');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('passes on every licence file of a package that ships several (MIT and Apache-2.0)', () => {
    const opencc = readPackage(path.join(modules, 'opencc-js'), 'the scripts (client chunks)');
    expect(opencc.text).toMatch(/^\[LICENSE\]\n\nMIT License/);
    expect(opencc.text).toContain('[THIRD_PARTY_LICENSES.md]');
    expect(opencc.text).toContain('Apache License');
  });
});
