/**
 * The item editor's errors as the editor fixes them (src/islands/studio/fieldErrors.ts), with the
 * kinds' own schemas and the editor's zh-CN messages: an error goes once its field is valid, a
 * field still invalid for another reason shows that reason, nothing new appears before a save,
 * a rule comparing two fields clears from either, and the server's own verdicts stay until their
 * field changes.
 */
import { describe, expect, it } from 'vitest';
import type { ContentKind } from '../../src/content/paths.ts';
import { kindSpecs } from '../../src/content/kinds.ts';
import { validateForm, type FieldErrors } from '../../src/islands/auth/formValidation.ts';
import { changesField, recheckedErrors } from '../../src/islands/studio/fieldErrors.ts';
import { emptyValue, fieldTreeOfKind, removeAt, setAt, type FieldPath } from '../../src/lib/studio/formModel.ts';
import { studioValidation } from '../../src/lib/studio/pageMessages.ts';

const messages = studioValidation('zh-CN');

/** What the editor shows after a save of `data` the browser's check refused. */
function saved(kind: ContentKind, data: unknown): FieldErrors {
  const checked = validateForm(kindSpecs[kind].schema, data, messages);
  if (checked.ok) throw new Error('expected errors');
  return checked.errors;
}

/** The errors after the editor changed `data` at `at` to `value` (the editor's own path: ItemEditor.change). */
function edit(
  kind: ContentKind,
  errors: FieldErrors,
  data: unknown,
  at: FieldPath,
  value: unknown,
  serverOnly?: ReadonlySet<string>,
) {
  const next = setAt(data, at, value);
  const check = () => {
    const checked = validateForm(kindSpecs[kind].schema, next, messages);
    return checked.ok ? {} : checked.errors;
  };
  return { data: next, errors: recheckedErrors(errors, at, check, serverOnly) };
}

describe('errors as the editor fixes them', () => {
  const empty = emptyValue(fieldTreeOfKind('news'));

  it('a fixed field loses its error, the others keep theirs, and the count follows down to none', () => {
    let errors = saved('news', empty);
    expect(Object.keys(errors).sort()).toEqual(['body', 'date', 'newsTypeCode', 'source', 'summary', 'title']);
    expect(errors['title']).toBe('请输入标题');

    let step = edit('news', errors, empty, ['title'], '新标题');
    expect(step.errors['title']).toBeUndefined();
    expect(Object.keys(step.errors)).toHaveLength(5);
    expect(step.errors['date']).toBe(errors['date']);

    for (const [field, value] of [
      ['newsTypeCode', 'market'],
      ['date', '2026-11-20'],
      ['source', '本站'],
      ['summary', '摘要'],
      ['body', '正文'],
    ] as const) {
      step = edit('news', step.errors, step.data, [field], value);
      expect(step.errors[field]).toBeUndefined();
    }
    errors = step.errors;
    expect(errors).toEqual({});
  });

  it('a field still invalid shows its new reason, and a field made invalid again gets its error back only on the next save', () => {
    const errors = saved('news', empty);
    const halfDate = edit('news', errors, empty, ['date'], '2026-02-30');
    expect(halfDate.errors['date']).not.toBe(errors['date']);
    expect(halfDate.errors['date']).toBeTruthy();
    const fixed = edit('news', halfDate.errors, halfDate.data, ['date'], '2026-02-28');
    expect(fixed.errors['date']).toBeUndefined();
    // Emptied again: no error until the editor saves (nothing appears while typing).
    expect(edit('news', fixed.errors, fixed.data, ['date'], '').errors['date']).toBeUndefined();
  });

  it('never adds an error at a field the editor has not been told about', () => {
    const title = { title: '请输入标题' };
    const step = edit('news', title, empty, ['source'], '');
    expect(step.errors).toEqual(title);
  });

  it('a rule comparing two fields is cleared by fixing either of them', () => {
    const bad = setAt(seedSet(), ['sellingSets', 0, 'validTo'], '2020-01-01');
    const errors = saved('set', bad);
    expect(Object.keys(errors)).toEqual(['sellingSets.0.validTo']);
    // Fixed at the other field: validFrom moved before validTo.
    expect(edit('set', errors, bad, ['sellingSets', 0, 'validFrom'], '2019-01-01').errors).toEqual({});
  });

  it('the server’s own verdicts stay while other fields change and go when their field changes', () => {
    const serverOnly = new Set(['body']);
    const errors = { body: 'Markdown 嵌套层级过深', title: '请输入标题' };
    const other = edit('news', errors, empty, ['title'], '标题', serverOnly);
    expect(other.errors).toEqual({ body: 'Markdown 嵌套层级过深' });
    expect(edit('news', other.errors, other.data, ['body'], '浅一些的正文', serverOnly).errors).toEqual({});
  });

  it('removing a list entry re-checks the errors inside the list', () => {
    const item = emptyValue(fieldTreeOfKind('bizItem')) as Record<string, unknown>;
    const two = setAt(
      setAt(item, ['descList', 1], { bizItemDescId: 'tab-b', tabId: 'b', title: '第二', desc: '内容' }),
      ['descList', 0],
      { bizItemDescId: 'tab-a', tabId: 'a', title: '', desc: '内容' },
    );
    const errors = saved('bizItem', two);
    expect(errors['descList.0.title']).toBeTruthy();
    const removed = removeAt(two, ['descList'], 0);
    const check = () => {
      const checked = validateForm(kindSpecs.bizItem.schema, removed, messages);
      return checked.ok ? {} : checked.errors;
    };
    expect(recheckedErrors(errors, ['descList'], check)['descList.0.title']).toBeUndefined();
  });

  it('reads a change of a whole list or object as a change of every field inside it', () => {
    expect(changesField('descList', 'descList.0.title')).toBe(true);
    expect(changesField('descList.0.title', 'descList')).toBe(true);
    expect(changesField('', 'title')).toBe(true);
    expect(changesField('title', 'titles')).toBe(false);
    expect(changesField('descList.1', 'descList.10.title')).toBe(false);
  });
});

/** A valid set item (the seed's shape), with one selling set. */
function seedSet(): unknown {
  return {
    productId: 'id1',
    name: '套餐',
    summary: '摘要',
    description: '说明',
    online: true,
    schemeParams: [
      {
        schemeParamId: 'p1',
        name: '参数',
        priceType: 'energyPrice',
        energyPrice: 0.4,
        contractMonths: [12],
        voltageLevels: ['kv10'],
      },
    ],
    filter: {},
    sellingSets: [{ sellingSetId: 's1', orgComId: 'nanfang-huineng', validFrom: '2026-01-01', validTo: '2026-12-31' }],
  };
}
