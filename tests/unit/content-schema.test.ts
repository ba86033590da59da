/**
 * The content schemas and loader: the real `src/content` loads and holds the minimums,
 * and a bad field fails with a ContentError naming the file and the field (temp-dir fixtures
 * copied from the real content, then broken one way each).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentError, loadContent } from '../../src/content/load.ts';

const realDir = path.resolve('src/content');
const fixtures: string[] = [];

/** A copy of the real content to break. */
function fixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'content-'));
  fixtures.push(dir);
  cpSync(realDir, dir, { recursive: true, filter: (source) => !source.endsWith('.ts') });
  return dir;
}

function edit(dir: string, file: string, change: (source: string) => string): void {
  const target = path.join(dir, file);
  writeFileSync(target, change(readFileSync(target, 'utf8')));
}

/** The ContentError thrown by loading `dir`. */
function failure(dir: string): ContentError {
  try {
    loadContent(dir);
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
  throw new Error('the content loaded without error');
}

afterEach(() => {
  for (const dir of fixtures.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the real content', () => {
  it('loads and every region is one of the five of the southern grid', () => {
    const content = loadContent(realDir);
    expect(content.regions.map((r) => r.areaCode).sort()).toEqual(['440000', '450000', '460000', '520000', '530000']);
    expect(content.regions[0]?.areaCode).toBe('440000');
    expect(content.products.map((p) => p.productId)).toEqual(['id1', 'id2', 'id3', 'id4', 'id5']);
    expect(content.dictionaries['newsType']?.length).toBeGreaterThanOrEqual(1);
    expect(content.industries.map((i) => i.code)).toContain('C');
  });

  it('holds the minimums the public pages need', () => {
    const content = loadContent(realDir);
    expect(content.bizTypes.length).toBeGreaterThanOrEqual(4);
    for (const region of content.regions) {
      const items = content.bizItems.filter((item) => item.areaCode === region.areaCode);
      expect(items.length, `business items of ${region.areaCode}`).toBeGreaterThan(0);
      expect(items.every((item) => item.descList.length > 0)).toBe(true);
      for (const productId of region.productIds) {
        const sets = content.sets.filter((set) => set.areaCode === region.areaCode && set.productId === productId);
        expect(sets.length, `sets of ${productId} in ${region.areaCode}`).toBeGreaterThanOrEqual(2);
      }
      expect(content.sellingSets.some((selling) => selling.areaCode === region.areaCode)).toBe(true);
    }
    expect(content.dictionaries['newsType']?.length).toBeGreaterThanOrEqual(3);
    expect(content.news.length).toBeGreaterThanOrEqual(30);
    for (const type of content.dictionaries['newsType'] ?? []) {
      expect(
        content.news.some((n) => n.newsTypeCode === type.code),
        `news of ${type.code}`,
      ).toBe(true);
    }
    expect(content.helpSections.length).toBeGreaterThanOrEqual(3);
    expect(content.helpDocuments.length).toBeGreaterThanOrEqual(12);
    expect(content.problemGuides.length).toBeGreaterThanOrEqual(10);
    expect(content.customerNotices.length).toBeGreaterThanOrEqual(5);
    expect(content.industries.map((i) => i.code).join('')).toBe('ABCDEFGHIJKLMNOPQRST');
  });

  it('renders Markdown to HTML', () => {
    const content = loadContent(realDir);
    expect(content.news[0]?.body).toMatch(/^<p>/);
    expect(content.bizItems[0]?.descList[0]?.desc).toMatch(/<\/p>|<\/li>/);
    expect(content.helpDocuments[0]?.content).toMatch(/<(p|ol|ul|h\d)>/);
  });

  it('sorts news newest first', () => {
    const dates = loadContent(realDir).news.map((n) => n.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });
});

describe('a bad content file', () => {
  it('names the news file and the field of a bad date', () => {
    const dir = fixture();
    const [first] = loadContent(dir).news;
    const file = `news/${first?.newsId}.md`;
    edit(dir, file, (s) => s.replace(/^date: .*$/m, 'date: 2026-13-45'));
    const error = failure(dir);
    expect(error.file.endsWith(file)).toBe(true);
    expect(error.field).toBe('date');
    expect(error.message).toContain(file);
    expect(error.message).toContain('date');
  });

  it('names a misspelled field (schemas are strict)', () => {
    const dir = fixture();
    edit(dir, 'regions/450000.yaml', (s) => s.replace(/^hotline:/m, 'hotlien:'));
    const error = failure(dir);
    expect(error.file.endsWith('regions/450000.yaml')).toBe(true);
    expect(error.message).toMatch(/hotline|hotlien/);
  });

  it('names the nested field of a business item tab', () => {
    const dir = fixture();
    const [item] = loadContent(dir).bizItems;
    const file = `business/${item?.areaCode}/${item?.bizItemId}.yaml`;
    edit(dir, file, (s) => s.replace(/tabId: \S+/, 'tabId: Not A Slug'));
    const error = failure(dir);
    expect(error.file.endsWith(file)).toBe(true);
    expect(error.field).toBe('descList[0].tabId');
  });

  it('names an unknown reference between files', () => {
    const dir = fixture();
    const [set] = loadContent(dir).sets;
    const file = `sets/${set?.areaCode}/${set?.setId}.yaml`;
    edit(dir, file, (s) => s.replace(/orgComId: \S+/, 'orgComId: no-such-company'));
    const error = failure(dir);
    expect(error.file.endsWith(file)).toBe(true);
    expect(error.field).toBe('sellingSets[0].orgComId');
    expect(error.message).toContain('no-such-company');
  });

  it('names a news type missing from the newsType dictionary', () => {
    const dir = fixture();
    const [first] = loadContent(dir).news;
    const file = `news/${first?.newsId}.md`;
    edit(dir, file, (s) => s.replace(/^newsTypeCode: .*$/m, 'newsTypeCode: gossip'));
    const error = failure(dir);
    expect(error.field).toBe('newsTypeCode');
    expect(error.message).toContain('gossip');
  });

  it('names a file whose front matter is missing', () => {
    const dir = fixture();
    const [notice] = loadContent(dir).customerNotices;
    const file = `notices/${notice?.noticeId}.md`;
    writeFileSync(path.join(dir, file), '# no front matter\n');
    expect(failure(dir).file.endsWith(file)).toBe(true);
  });

  it('names the file of invalid YAML', () => {
    const dir = fixture();
    writeFileSync(path.join(dir, 'business-types.yaml'), '- bizTypeId: [unclosed\n');
    expect(failure(dir).file.endsWith('business-types.yaml')).toBe(true);
  });

  it('names both files when an id repeats', () => {
    const dir = fixture();
    // A copied set file: a new setId, but the ids inside it (scheme parameters, selling sets) repeat.
    const [set] = loadContent(dir).sets;
    const file = `sets/${set?.areaCode}/${set?.setId}.yaml`;
    cpSync(path.join(dir, file), path.join(dir, `sets/${set?.areaCode}/zz-copy.yaml`));
    const error = failure(dir);
    expect(error.file.endsWith(`sets/${set?.areaCode}/zz-copy.yaml`)).toBe(true);
    expect(error.message).toContain(file);
  });
});
