import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contentKinds } from '../../src/content/paths.ts';
import { kindSpecs } from '../../src/content/kinds.ts';
import { dateField, markdownField } from '../../src/content/schemas.ts';
import {
  appendAt,
  emptyValue,
  errorsWithoutField,
  fieldNames,
  fieldTree,
  fieldTreeOfKind,
  freeKey,
  getAt,
  moveAt,
  newListEntry,
  numberFromInput,
  pathName,
  removeAt,
  renameKeyAt,
  setAt,
  type FieldNode,
} from '../../src/lib/studio/formModel.ts';

const fieldOf = (node: FieldNode, key: string): FieldNode => {
  if (node.type !== 'object') throw new Error(`not an object: ${node.type}`);
  const found = node.fields.find((field) => field.key === key);
  if (!found) throw new Error(`no field ${key}`);
  return found.node;
};

describe('fieldTree: zod 4 schemas into form fields', () => {
  it('reads every shape the content schemas use', () => {
    const schema = z.strictObject({
      title: z.string().trim().min(1).max(60),
      summary: z.string().max(300),
      date: dateField,
      body: markdownField,
      image: z.string(),
      sort: z.number().int().min(0).default(0),
      share: z.number().min(0).max(100).optional(),
      online: z.boolean(),
      productId: z.enum(['id1', 'id2']),
      toTop: z.union([z.literal(0), z.literal(1)]),
      list: z.array(z.strictObject({ a: z.string() })).min(1),
      map: z.record(z.string(), z.array(z.string())),
      refined: z.strictObject({ x: z.number() }).refine((v) => v.x > 0, 'x'),
    });
    const tree = fieldTree(schema);
    expect(tree.type).toBe('object');
    expect(fieldOf(tree, 'title')).toEqual({ optional: false, type: 'text', input: 'line', maxLength: 60 });
    expect(fieldOf(tree, 'summary')).toMatchObject({ type: 'text', input: 'multiline' });
    expect(fieldOf(tree, 'date')).toMatchObject({ type: 'text', input: 'date' });
    expect(fieldOf(tree, 'body')).toEqual({ optional: false, type: 'markdown' });
    expect(fieldOf(tree, 'image')).toMatchObject({ type: 'text', input: 'image' });
    expect(fieldOf(tree, 'sort')).toEqual({
      optional: false,
      defaultValue: 0,
      type: 'number',
      integer: true,
      min: 0,
      max: undefined,
    });
    expect(fieldOf(tree, 'share')).toEqual({ optional: true, type: 'number', integer: false, min: 0, max: 100 });
    expect(fieldOf(tree, 'online')).toEqual({ optional: false, type: 'boolean' });
    expect(fieldOf(tree, 'productId')).toEqual({ optional: false, type: 'choice', options: ['id1', 'id2'] });
    expect(fieldOf(tree, 'toTop')).toEqual({ optional: false, type: 'choice', options: [0, 1] });
    expect(fieldOf(tree, 'list')).toMatchObject({ type: 'list', minItems: 1, element: { type: 'object' } });
    expect(fieldOf(tree, 'map')).toMatchObject({ type: 'map', value: { type: 'list', element: { type: 'text' } } });
    expect(fieldOf(tree, 'refined')).toMatchObject({
      type: 'object',
      fields: [{ key: 'x', node: { type: 'number' } }],
    });
  });

  it('marks the Markdown fields: markdownField inside data, and the body of a Markdown kind', () => {
    const bizItem = fieldTreeOfKind('bizItem');
    const descList = fieldOf(bizItem, 'descList');
    if (descList.type !== 'list') throw new Error('descList is a list');
    expect(fieldOf(descList.element, 'desc').type).toBe('markdown');
    expect(fieldOf(descList.element, 'title').type).toBe('text');
    expect(fieldOf(fieldTreeOfKind('news'), 'body').type).toBe('markdown');
    expect(fieldOf(fieldTreeOfKind('news'), 'summary').type).toBe('text');
    expect(fieldOf(fieldTreeOfKind('set'), 'description').type).toBe('markdown');
  });

  it('reads every kind of content without an unsupported field', () => {
    const unsupported = (node: FieldNode, path: string): string[] => {
      if (node.type === 'unsupported') return [`${path}: ${node.zodType}`];
      if (node.type === 'object')
        return node.fields.flatMap((field) => unsupported(field.node, `${path}.${field.key}`));
      if (node.type === 'list') return unsupported(node.element, `${path}[]`);
      if (node.type === 'map') return unsupported(node.value, `${path}{}`);
      return [];
    };
    for (const kind of contentKinds) expect(unsupported(fieldTreeOfKind(kind), kind)).toEqual([]);
  });

  it('lists the field names that need a label', () => {
    expect([...fieldNames(fieldTreeOfKind('news'))]).toEqual([
      'newsTypeCode',
      'title',
      'date',
      'source',
      'summary',
      'pinned',
      'translations',
      'en-US',
      'body',
      'zh-TW',
      'id-ID',
      'pt-BR',
    ]);
  });
});

describe('emptyValue: what a new item starts with', () => {
  it('gives a new news item the shape the schema needs, defaults filled in', () => {
    expect(emptyValue(fieldTreeOfKind('news'))).toEqual({
      newsTypeCode: '',
      title: '',
      date: '',
      source: '',
      summary: '',
      pinned: false,
      body: '',
    });
  });

  it('gives a list that needs entries its first one, and leaves optional fields out', () => {
    const value = emptyValue(fieldTreeOfKind('bizItem')) as Record<string, unknown>;
    expect(value['descList']).toEqual([{ bizItemDescId: '', tabId: '', title: '', desc: '' }]);
    expect(value['bizItemProducts']).toEqual([]);
    expect(value['sort']).toBe(0);
    expect(value['bizTypeId']).toBe('');
  });

  it('starts a new list entry with its required fields only', () => {
    const banners = fieldOf(fieldTreeOfKind('region'), 'banners');
    if (banners.type !== 'list') throw new Error('banners is a list');
    expect(newListEntry(banners.element)).toEqual({ bannerId: '', image: '', alt: '' });
  });

  it('gives an empty value that the schema then judges field by field', () => {
    const result = kindSpecs.news.schema.safeParse(emptyValue(fieldTreeOfKind('news')));
    expect(result.success).toBe(false);
    const fields = result.success
      ? []
      : result.error.issues.map((issue) => pathName(issue.path as (string | number)[]));
    expect(fields).toEqual(expect.arrayContaining(['title', 'date', 'body']));
  });
});

describe('editing data at a path', () => {
  const data = { title: 'a', descList: [{ desc: 'x' }, { desc: 'y' }, { desc: 'z' }], map: { a: 1, b: 2 } };

  it('reads and writes without changing the original', () => {
    const next = setAt(data, ['descList', 1, 'desc'], 'Y');
    expect(getAt(next, ['descList', 1, 'desc'])).toBe('Y');
    expect(data.descList[1]?.desc).toBe('y');
    expect(setAt({ a: 1, b: 2 }, ['a'], undefined)).toEqual({ b: 2 });
    expect(setAt(undefined, ['filter', 'voltageLevels'], ['10kV'])).toEqual({ filter: { voltageLevels: ['10kV'] } });
  });

  it('adds, removes and moves list entries', () => {
    expect(getAt(appendAt(data, ['descList'], { desc: 'w' }), ['descList', 3])).toEqual({ desc: 'w' });
    expect(getAt(removeAt(data, ['descList'], 0), ['descList'])).toEqual([{ desc: 'y' }, { desc: 'z' }]);
    expect(getAt(moveAt(data, ['descList'], 2, -1), ['descList'])).toEqual([
      { desc: 'x' },
      { desc: 'z' },
      { desc: 'y' },
    ]);
    expect(getAt(moveAt(data, ['descList'], 0, -1), ['descList'])).toEqual(data.descList);
    expect(getAt(appendAt({}, ['list'], 1), ['list'])).toEqual([1]);
  });

  it('renames map keys in place and refuses a taken one', () => {
    expect(Object.keys(getAt(renameKeyAt(data, ['map'], 'a', 'c'), ['map']) as object)).toEqual(['c', 'b']);
    expect(renameKeyAt(data, ['map'], 'a', 'b')).toBe(data);
    expect(freeKey({ newKey: 1, newKey2: 2 }, 'newKey')).toBe('newKey3');
  });

  it('reads number inputs without losing what was typed', () => {
    expect(numberFromInput('')).toBeUndefined();
    expect(numberFromInput(' 0.45 ')).toBe(0.45);
    expect(numberFromInput('abc')).toBe('abc');
  });

  it('names the errors no field shows, so the editor lists them', () => {
    const tree = fieldTreeOfKind('dictionaries');
    const value = { newsType: [{ code: 'a', name: 'A' }] };
    expect(
      errorsWithoutField(tree, value, { value: 'the voltageLevel dictionary is required', 'newsType.0.name': 'x' }),
    ).toEqual(['value']);
  });
});
