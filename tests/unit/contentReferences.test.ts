/**
 * The reference table (src/content/references.ts): each row is a field the build refuses when it
 * names nothing of its source, every such check of the loader is a row, the editor's field tree
 * marks each row's field, and the choices are what the content holds, narrowed where the build
 * narrows.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentKinds, kindOfPath } from '../../src/content/paths.ts';
import { dataOfFile, fileTextOf } from '../../src/content/files.ts';
import { ContentError, loadContent } from '../../src/content/load.ts';
import {
  choicesOfItems,
  referenceFields,
  type ReferenceField,
  type ReferenceSource,
} from '../../src/content/references.ts';
import { fieldTreeOfKind, getAt, setAt, type FieldNode, type FieldPath } from '../../src/lib/studio/formModel.ts';
import { readContentFiles } from '../../src/server/studio/contentRepo.ts';

const seed = await readContentFiles('src/content');
const items = [...seed].map(([file, text]) => ({ path: file, data: dataOfFile(kindOfPath(file)!.kind, text) }));

/** A value each source does not hold (of the right shape where the schema allows, so the cross-check is what refuses it). */
const nothing: Record<ReferenceSource, string> = {
  region: '999999',
  bizType: 'no-such-type',
  product: 'id9',
  orgCom: 'no-such-company',
  set: 'no-such-set',
  newsType: 'no-such-type',
  voltageLevel: 'kv999',
  industry: 'Z',
  helpDocument: 'no-such-document',
  notice: 'no-such-notice',
};

/** The first place a row's field is in the data (`*` → entry 0; a list of references → its entry 0). */
function firstPlace(row: ReferenceField): FieldPath {
  const segments: (string | number)[] = row.field.split('.').map((segment) => (segment === '*' ? 0 : segment));
  return row.many ? [...segments, 0] : segments;
}

/** How the loader names a field: `sections[0].documents[1]`. */
const loaderName = (place: FieldPath) =>
  place.reduce<string>(
    (name, segment) => (typeof segment === 'number' ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment),
    '',
  );

describe('the reference table', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hgd-references-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(referenceFields.map((row) => [`${row.kind} ${row.field} → ${row.source}`, row] as const))(
    '%s: the build refuses a value its source does not hold, at that field',
    (_name, row) => {
      const place = firstPlace(row);
      // An item of the kind whose data has the place's parent (a set with selling sets, a business item with related products).
      const item = items.find(
        (candidate) =>
          kindOfPath(candidate.path)?.kind === row.kind && getAt(candidate.data, place.slice(0, -1)) !== undefined,
      );
      expect(item, `a seed item of ${row.kind} with ${row.field}`).toBeDefined();
      const bad = row.many
        ? setAt(item!.data, place.slice(0, -1), [nothing[row.source]])
        : setAt(item!.data, place, nothing[row.source]);
      cpSync('src/content', dir, { recursive: true });
      writeFileSync(path.join(dir, item!.path), fileTextOf(row.kind, bad));
      let refused: unknown;
      try {
        loadContent(dir);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(ContentError);
      expect((refused as ContentError).file.endsWith(item!.path)).toBe(true);
      expect((refused as ContentError).field).toBe(loaderName(place));
    },
  );

  it('has a row for every reference the build checks (the loader’s “unknown …” checks)', () => {
    const source = readFileSync('src/content/load.ts', 'utf8');
    const checked = new Set<string>();
    // Each call as a whole, however the formatter wrapped it: reader.fail(file, field, message).
    for (const call of source.matchAll(/reader\.fail\(\s*[^,]+,\s*(`[^`]*`|'[^']*'|[A-Za-z]+),\s*(`[^`]*`|'[^']*')/g)) {
      const message = call[2]!;
      if (!/unknown |no customer notice|is not a set of|no help document/.test(message)) continue;
      let field = call[1]!;
      // A field named by a variable: its definition just above.
      if (/^[A-Za-z]+$/.test(field))
        field =
          new RegExp(`const ${field} = (\`[^\`]*\`)`).exec(
            source.slice(Math.max(0, call.index - 400), call.index),
          )?.[1] ?? field;
      const pattern = field
        .slice(1, -1)
        .replace(/\[\$\{\w+\}\]/g, '.*')
        .replace(/^\./, '');
      if (!pattern.startsWith('(')) checked.add(pattern);
    }
    expect(checked.size).toBeGreaterThanOrEqual(12);
    const rows = new Set(referenceFields.map((row) => (row.many ? `${row.field}.*` : row.field)));
    expect([...checked].filter((pattern) => !rows.has(pattern))).toEqual([]);
  });

  it('marks every row’s field in its kind’s form, the entries of an ordered list and a set list as a whole', () => {
    const at = (node: FieldNode, segments: readonly string[]): FieldNode => {
      const [head, ...rest] = segments;
      if (head === undefined) return node;
      if (head === '*' && node.type === 'list') return at(node.element, rest);
      if (node.type === 'object') return at(node.fields.find((field) => field.key === head)!.node, rest);
      throw new Error(`no ${head}`);
    };
    for (const row of referenceFields) {
      const node = at(fieldTreeOfKind(row.kind), row.field.split('.'));
      if (row.many === 'ordered') {
        expect(node.type).toBe('list');
        expect(node.type === 'list' && node.element.reference).toBe(row);
      } else {
        expect(node.reference, `${row.kind} ${row.field}`).toBe(row);
        if (row.many === 'set') expect(node.type).toBe('list');
      }
    }
    for (const kind of contentKinds) expect(() => fieldTreeOfKind(kind)).not.toThrow();
  });
});

describe('choices', () => {
  const choices = choicesOfItems(items);

  it('hold every source in the site’s order, named', () => {
    expect(choices.newsType.map((choice) => choice.value)).toEqual(['policy', 'market', 'company']);
    expect(choices.newsType[0]).toEqual({ value: 'policy', name: '政策法规' });
    expect(choices.voltageLevel.map((choice) => choice.value)).toEqual(['kv0_4', 'kv10', 'kv35', 'kv110', 'kv220']);
    expect(choices.industry).toHaveLength(20);
    expect(choices.region.map((choice) => choice.value)).toEqual(['440000', '450000', '460000', '520000', '530000']);
    expect(choices.set).toHaveLength(50);
    expect(choices.helpDocument.map((choice) => choice.value)).toContain('partner-area');
    expect(choices.notice.every((choice) => choice.name !== '')).toBe(true);
  });

  it('leave out an item that is not there (a draft deleting it) and include a new one', () => {
    const without = choicesOfItems([
      ...items.filter((item) => item.path !== 'notices/notice-hotline-hours.md'),
      { path: 'notices/fresh.md', data: { title: '新公告' } },
      { path: 'news/x.md', data: null },
    ]);
    expect(without.notice.map((choice) => choice.value)).not.toContain('notice-hotline-hours');
    expect(without.notice).toContainEqual({ value: 'fresh', name: '新公告' });
  });

  it('are narrowed where the build narrows: a set of the entry’s product in the item’s region, a company selling in the set’s region', () => {
    const setRow = referenceFields.find((row) => row.kind === 'bizItem' && row.field === 'bizItemProducts.*.setId')!;
    const sets = choices.set.filter((choice) =>
      setRow.narrow!(choice, { areaCode: '450000', siblings: { productId: 'id1' } }),
    );
    expect(sets.length).toBeGreaterThan(0);
    expect(sets.every((choice) => choice.areaCodes?.[0] === '450000' && choice.productId === 'id1')).toBe(true);
    const orgRow = referenceFields.find((row) => row.source === 'orgCom')!;
    const guangxi = choices.orgCom
      .filter((choice) => orgRow.narrow!(choice, { areaCode: '450000', siblings: {} }))
      .map((choice) => choice.value);
    expect(guangxi).toContain('nanfang-huineng');
    expect(guangxi).not.toContain('yuehui-dianneng');
  });
});
