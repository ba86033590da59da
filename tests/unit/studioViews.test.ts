import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import BuildStatus from '../../src/islands/studio/BuildStatus.tsx';
import { phaseKey, previewPageUrl, progressOf, regionPrefixes } from '../../src/islands/studio/buildProgress.ts';
import { versionDiff } from '../../src/islands/studio/versionDiff.ts';
import type { StudioBuildView } from '../../src/lib/api/studio.ts';
import { contentFieldNames, fieldLabels, studioMessages, studioValidation } from '../../src/lib/studio/pageMessages.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { locales } from '../../src/lib/i18n/locales.ts';
import { validateForm } from '../../src/islands/auth/formValidation.ts';
import { kindSpecs } from '../../src/content/kinds.ts';

describe('version diff', () => {
  const news = {
    newsTypeCode: 'industry',
    title: '旧标题',
    date: '2026-01-02',
    source: '本站',
    summary: 's',
    body: '第一段\n\n第二段\n',
  };

  it('shows the changed lines of the file text, front matter and Markdown alike', () => {
    const diff = versionDiff('news', news, { ...news, title: '新标题', body: '第一段\n\n第二段（改）\n' });
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(2);
    expect(diff.lines.filter((line) => line.change === 'removed').map((line) => line.text)).toEqual([
      'title: 旧标题',
      '第二段',
    ]);
    expect(diff.lines.filter((line) => line.change === 'added').map((line) => line.text)).toEqual([
      'title: 新标题',
      '第二段（改）',
    ]);
    expect(diff.lines[0]).toEqual({ change: 'same', text: '---' });
  });

  it('shows a whole file added when there was nothing before, and no change between equals', () => {
    const diff = versionDiff('news', null, news);
    expect(diff.removed).toBe(0);
    expect(diff.lines.every((line) => line.change === 'added')).toBe(true);
    expect(versionDiff('news', news, { ...news })).toMatchObject({ added: 0, removed: 0 });
  });
});

describe('build progress', () => {
  it('says the step in words and the share done', () => {
    expect(phaseKey({ phase: 'build' })).toBe('studio.phase.build');
    expect(phaseKey({ phase: null })).toBe('studio.phase.queued');
    expect(progressOf({ progressDone: 150, progressTotal: 600 })).toEqual({ done: 150, total: 600, percent: 25 });
    expect(progressOf({ progressDone: 700, progressTotal: 600 })).toEqual({ done: 600, total: 600, percent: 100 });
    expect(progressOf({ progressDone: null, progressTotal: null })).toBeUndefined();
    expect(progressOf({ progressDone: 0, progressTotal: 0 })).toBeUndefined();
  });

  it('opens a previewed item on its own page inside the preview', () => {
    const prefixes = regionPrefixes([
      { areaCode: '440000', name: '广东', prefix: '' },
      { areaCode: '450000', name: '广西', prefix: '/gx' },
    ]);
    expect(previewPageUrl('/studio-preview/7', 'news/new-item.md', {}, prefixes)).toBe(
      '/studio-preview/7/infomation/detail/new-item',
    );
    expect(previewPageUrl('/studio-preview/7/', 'sets/450000/s1.yaml', { productId: 'id2' }, prefixes)).toBe(
      '/studio-preview/7/gx/products/id2/s1',
    );
  });
});

describe('field labels', () => {
  it.each(locales)('labels every content field in %s from the dictionaries', (locale) => {
    const dictionary: Readonly<Record<string, string>> = dictionaries[locale];
    const labels = fieldLabels(locale);
    for (const name of contentFieldNames()) {
      const key = dictionary[`studio.label.${name}`] === undefined ? `field.${name}` : `studio.label.${name}`;
      expect(dictionary[key], `${locale} ${key}`).toBeTruthy();
      expect(labels[name]).toBe(dictionary[key]);
    }
  });

  it("names a content item's name 名称, not a person's 姓名, in the editor's messages", () => {
    expect(fieldLabels('zh-CN')['name']).toBe('名称');
    const result = validateForm(
      kindSpecs.orgComs.schema,
      [
        {
          orgComId: 'a',
          name: '',
          shortName: 'x',
          creditCode: '91440000MA5XXXXX0X',
          hotline: '95598',
          address: 'x',
          areaCodes: ['440000'],
        },
      ],
      studioValidation('zh-CN'),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors['0.name']).toBe('请输入名称');
  });

  it("gives errors deep in a list their dotted path and the field's label in the locale", () => {
    const item = {
      bizTypeId: 'x',
      title: 't',
      summary: 's',
      descList: [{ bizItemDescId: 'a', tabId: 'b', title: 'c', desc: ' ' }],
    };
    const zh = validateForm(kindSpecs.bizItem.schema, item, studioValidation('zh-CN'));
    const en = validateForm(kindSpecs.bizItem.schema, item, studioValidation('en-US'));
    expect(zh.ok || zh.errors['descList.0.desc']).toMatch(/说明内容/);
    expect(en.ok || en.errors['descList.0.desc']).toMatch(/description/i);
  });
});

describe('a build that started over', () => {
  const running: StudioBuildView = {
    buildId: 12,
    status: 'running',
    startedAt: '2026-12-02T08:00:00.000Z',
    finishedAt: null,
    pages: null,
    error: null,
    outputDir: null,
    publishedAt: null,
    purpose: 'publish',
    phase: 'build',
    progressDone: 3,
    progressTotal: 40,
    mode: 'incremental',
    restarts: 0,
    startedBy: null,
    paths: ['news/a.md'],
    previewUrl: null,
  };
  const render = (build: StudioBuildView, locale: (typeof locales)[number]) =>
    renderToStaticMarkup(createElement(BuildStatus, { build, regions: [], locale, messages: studioMessages(locale) }));

  it('tells the editor in their language that it restarted by itself and needs nothing from them', () => {
    expect(render(running, 'zh-CN')).not.toContain('data-build-restarted');
    const restarted = { ...running, restarts: 1 };
    for (const locale of locales) {
      const html = render(restarted, locale);
      expect(html, locale).toContain('data-build-restarted');
      expect(html, locale).toContain(studioMessages(locale)['studio.build.restarted'].replace('{count}', '1'));
    }
    expect(render({ ...restarted, status: 'succeeded', phase: null }, 'zh-CN')).toContain(
      '自动从头重新开始（第 1 次）',
    );
  });
});
