/**
 * The kinds of content (src/content/kinds.ts): every seed file is an item of exactly one kind, its
 * path and key are inverses, and its data survives the file format both ways (what export writes,
 * import reads back unchanged); the data passes its kind's schema, the build's own.
 */
import { describe, expect, it } from 'vitest';
import { contentKinds, kindOfPath, pageOfItem } from '../../src/content/paths.ts';
import { kindSpecs } from '../../src/content/kinds.ts';
import { dataOfFile, fileTextOf } from '../../src/content/files.ts';
import { itemsOfFiles, readContentFiles } from '../../src/server/studio/contentRepo.ts';

const items = itemsOfFiles(await readContentFiles('src/content'));

describe('content kinds', () => {
  it('every seed file is an item, every kind has at least one', () => {
    expect(items.length).toBeGreaterThan(40);
    expect(new Set(items.map((item) => item.kind))).toEqual(new Set(contentKinds));
  });

  it('path and key are inverses; other paths are no item', () => {
    for (const item of items) {
      const found = kindOfPath(item.path);
      expect(found?.kind).toBe(item.kind);
      expect(kindSpecs[item.kind].pathOf(found!.key)).toBe(item.path);
    }
    for (const other of [
      'schemas.ts',
      'news/Upper.md',
      'news/a/b.md',
      'sets/44000/x.yaml',
      'regions/abc.yaml',
      '../news/a.md',
      'news/a.yaml',
    ]) {
      expect(kindOfPath(other)).toBeUndefined();
    }
  });

  it('data round-trips through the file format and passes its kind’s schema', () => {
    for (const item of items) {
      expect(dataOfFile(item.kind, fileTextOf(item.kind, item.data)), item.path).toEqual(item.data);
      expect(kindSpecs[item.kind].schema.safeParse(item.data).success, item.path).toBe(true);
    }
  });

  it('a Markdown item keeps its body apart from the front matter', () => {
    const text = fileTextOf('news', { title: 'T', body: '# Heading\n\ntext' });
    expect(text).toBe('---\ntitle: T\n---\n# Heading\n\ntext\n');
    expect(() => dataOfFile('news', 'no front matter')).toThrow(/front matter/);
  });

  it('preview opens the page that shows the item, in its region', () => {
    const prefixes = { '440000': '', '450000': '/gx' };
    expect(pageOfItem('news/abc.md', {}, prefixes)).toBe('/infomation/detail/abc');
    expect(pageOfItem('sets/450000/gx-fixed.yaml', { productId: 'id1' }, prefixes)).toBe('/gx/products/id1/gx-fixed');
    expect(pageOfItem('business/440000/b1.yaml', { bizTypeId: 'green-power' }, prefixes)).toBe(
      '/business/green-power/b1',
    );
    expect(pageOfItem('regions/450000.yaml', {}, prefixes)).toBe('/gx/welcome/home');
  });
});
