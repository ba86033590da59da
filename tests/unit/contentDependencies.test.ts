/**
 * The content keys a page reads and the keys a change alters (src/content/dependencies.ts): the
 * two halves of deciding which pages an incremental build renders again.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changedKeys,
  contentFingerprints,
  propsFingerprint,
  tagSource,
  trackReads,
} from '../../src/content/dependencies.ts';
import { loadContent } from '../../src/content/load.ts';
import type { SiteContent } from '../../src/content/schemas.ts';

const seed = path.resolve(import.meta.dirname, '../../src/content');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of the seed content, changed by `change`. */
function changed(change: (dir: string) => void): SiteContent {
  const dir = mkdtempSync(path.join(tmpdir(), 'hgd-deps-'));
  dirs.push(dir);
  cpSync(seed, dir, { recursive: true, filter: (source) => !source.endsWith('.ts') });
  change(dir);
  return loadContent(dir);
}

function reading(content: SiteContent, read: (content: SiteContent) => unknown): string[] {
  const keys = new Set<string>();
  const tracked = trackReads(content, () => (key) => keys.add(key));
  read(tracked);
  return [...keys].sort();
}

describe('what a page reads', () => {
  const content = loadContent(seed);
  const first = content.news[0]!;
  const file = `news/${first.newsId}.md`;

  it('records a field of an item file under the file, and a collection read under the collection', () => {
    expect(reading(content, (c) => c.news[0]!.title)).toEqual(['#news', `${file}#title`]);
  });

  it('records a read deep inside a field under that field', () => {
    const region = content.regions[0]!;
    const regionFile = `regions/${region.areaCode}.yaml`;
    expect(reading(content, (c) => c.regions[0]!.banners[0]?.title)).toEqual(['#regions', `${regionFile}#banners`]);
  });

  it('records every field a spread or JSON copy reads', () => {
    const keys = reading(content, (c) => JSON.stringify({ ...c.news[0]! }));
    for (const field of Object.keys(first)) expect(keys).toContain(`${file}#${field}`);
  });

  it('records a whole single-file collection as one key', () => {
    expect(reading(content, (c) => c.products.map((product) => product.productId))).toEqual(['#products']);
  });

  it('records nothing between pages, and keeps identity: the same object reads as the same proxy', () => {
    let recording = false;
    const keys: string[] = [];
    const tracked = trackReads(content, () => (recording ? (key) => keys.push(key) : undefined));
    const item = tracked.news[0];
    expect(keys).toEqual([]);
    recording = true;
    expect(tracked.news[0]).toBe(item);
    expect(tracked.news.includes(item!)).toBe(true);
    expect(Array.isArray(tracked.news)).toBe(true);
  });
});

describe('what a change alters', () => {
  const before = contentFingerprints(loadContent(seed));

  it('an edited body is one key', () => {
    const after = changed((dir) => {
      const file = path.join(dir, 'news', '20250108-platform-launch.md');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n追加。\n`);
    });
    expect([...changedKeys(before, contentFingerprints(after))]).toEqual(['news/20250108-platform-launch.md#body']);
  });

  it('a new item is its own keys and the collection', () => {
    const after = changed((dir) => {
      writeFileSync(
        path.join(dir, 'news', 'zz-new.md'),
        readFileSync(path.join(dir, 'news', '20250108-platform-launch.md'), 'utf8'),
      );
    });
    const keys = [...changedKeys(before, contentFingerprints(after))];
    expect(keys).toContain('#news');
    expect(keys.filter((key) => !key.startsWith('news/zz-new.md#') && key !== '#news')).toEqual([]);
  });

  it('a removed item is its keys and the collection', () => {
    const after = changed((dir) => rmSync(path.join(dir, 'news', '20250108-platform-launch.md')));
    const keys = [...changedKeys(before, contentFingerprints(after))];
    expect(keys).toContain('#news');
    expect(keys).toContain('news/20250108-platform-launch.md#title');
  });

  it('the same content alters nothing', () => {
    expect(changedKeys(before, contentFingerprints(loadContent(seed))).size).toBe(0);
  });
});

describe('props', () => {
  it('name the item files they carry, not their fields', () => {
    const item = tagSource({ newsId: 'a', title: 'T' }, 'news/a.md');
    expect(propsFingerprint({ item, page: 2 })).toBe('{"item":{"@":"news/a.md"},"page":2}');
    expect(propsFingerprint({ item: { ...item, title: 'other' }, page: 2 })).not.toBe(
      propsFingerprint({ item, page: 2 }),
    );
  });
});
