/**
 * Content API, shared content: dictionaries, news pages (data + recordsTotal, page size 5), news
 * detail, customer notices, problem guides, the help catalogue and documents, the industry list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { localizeSiteContent } from '../../src/content/localized.ts';
import { firstHelpDocument, helpCatalogue, listNews, listNewsTypes } from '../../src/content/query.ts';
import type { SiteContent } from '../../src/content/schemas.ts';
import { createTestApp, openPerFile } from './harness.ts';
import { getJson } from './contentClient.ts';

const t = openPerFile(createTestApp);
let content: SiteContent;
beforeAll(async () => {
  // What the calls answer a zh-CN reader: the content as written, without its translations.
  content = localizeSiteContent(loadContent('src/content'), 'zh-CN');
});

const hny = '/api/front/external/hnyData';
const help = '/api/front/help/document/client';

interface NewsRow {
  newsId: string;
  newsTypeCode: string;
  newsTypeName: string;
  title: string;
  date: string;
  body?: string;
}
interface Paged<T> {
  data: T[];
  recordsTotal: number;
  pageNo: number;
  pageSize: number;
  pageCount: number;
}

describe('dictionaries', () => {
  it('answers the newsType tabs with their codes, first tab first', async () => {
    const body = await getJson<{ code: string; name: string }[]>(t, `${hny}/getDictionaryByCategoryCode`, {
      categoryCode: 'newsType',
    });
    expect(body.code).toBe(200);
    expect(body.data.map((d) => d.code)).toEqual(listNewsTypes(content).map((d) => d.code));
    expect(body.data.length).toBeGreaterThanOrEqual(3);
  });

  it('answers 400 without a category and 404 for an unknown one', async () => {
    expect(await getJson(t, `${hny}/getDictionaryByCategoryCode`)).toMatchObject({
      code: 400,
      message: '请输入字典类别',
    });
    expect(await getJson(t, `${hny}/getDictionaryByCategoryCode`, { categoryCode: 'noSuchCategory' })).toMatchObject({
      code: 404,
      message: '字典类别不存在',
    });
    expect((await getJson(t, `${hny}/getDictionaryByCategoryCode`, { categoryCode: '__proto__' })).code).not.toBe(200);
  });
});

describe('news', () => {
  it("pages a type's news 5 at a time, page 1 first, with data and recordsTotal", async () => {
    const type = listNewsTypes(content)[0]?.code ?? '';
    const expected = listNews(content, type);
    const first = await getJson<Paged<NewsRow>>(t, `${hny}/searchPageNews`, { newsTypeCode: type });
    expect(first.code).toBe(200);
    expect(first.data.recordsTotal).toBe(expected.length);
    expect(first.data).toMatchObject({ pageNo: 1, pageSize: 5 });
    expect(first.data.data.map((n) => n.newsId)).toEqual(expected.slice(0, 5).map((n) => n.newsId));
    expect(first.data.data.every((n) => n.newsTypeCode === type && n.newsTypeName !== '' && n.body === undefined)).toBe(
      true,
    );
    const second = await getJson<Paged<NewsRow>>(t, `${hny}/searchPageNews`, {
      newsTypeCode: type,
      pageNo: '2',
      pageSize: '5',
    });
    expect(second.data.data.map((n) => n.newsId)).toEqual(expected.slice(5, 10).map((n) => n.newsId));
    const beyond = await getJson<Paged<NewsRow>>(t, `${hny}/searchPageNews`, { newsTypeCode: type, pageNo: '999' });
    expect(beyond.data.data).toEqual([]);
    expect(beyond.data.recordsTotal).toBe(expected.length);
  });

  it("pages every type together when no type is given (the home page's 2 latest)", async () => {
    const body = await getJson<Paged<NewsRow>>(t, `${hny}/searchPageNews`, { pageSize: '2' });
    expect(body.data.recordsTotal).toBe(content.news.length);
    expect(body.data.data.map((n) => n.newsId)).toEqual(
      listNews(content)
        .slice(0, 2)
        .map((n) => n.newsId),
    );
  });

  it('treats empty parameters as absent, as a form sends them', async () => {
    const body = await getJson<Paged<NewsRow>>(t, `${hny}/searchPageNews`, {
      newsTypeCode: '',
      pageNo: '',
      pageSize: '',
    });
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({ pageNo: 1, pageSize: 5, recordsTotal: content.news.length });
  });

  it('rejects bad paging and unknown types', async () => {
    const path = `${hny}/searchPageNews`;
    expect(await getJson(t, path, { pageNo: '0' })).toMatchObject({ code: 400, message: '页码最小值为1' });
    expect((await getJson(t, path, { pageNo: 'two' })).code).toBe(400);
    expect((await getJson(t, path, { pageNo: '1.5' })).code).toBe(400);
    expect((await getJson(t, path, { pageSize: '51' })).code).toBe(400);
    expect((await getJson(t, path, { pageSize: '0' }, 'pt-BR')).code).toBe(400);
    expect(await getJson(t, path, { newsTypeCode: 'gossip' })).toMatchObject({ code: 404, message: '新闻类型不存在' });
    expect((await getJson(t, path, { newsTypeCode: 'a b' })).code).toBe(400);
  });

  it('answers a news item with its body, and 404 / 400 otherwise', async () => {
    const item = content.news[0];
    if (!item) throw new Error('the content has no news');
    const body = await getJson<NewsRow>(t, `${hny}/getNewsById`, { newsId: item.newsId });
    expect(body.data).toMatchObject({ newsId: item.newsId, title: item.title, body: item.body, date: item.date });
    expect(await getJson(t, `${hny}/getNewsById`, { newsId: 'no-such-news' }, 'zh-TW')).toMatchObject({
      code: 404,
      message: '新聞不存在或已下線',
    });
    expect(await getJson(t, `${hny}/getNewsById`, {}, 'en-US')).toMatchObject({
      code: 400,
      message: 'Please enter news id',
    });
  });
});

describe('customer notices and problem guides', () => {
  it('lists notice titles newest first and answers one notice', async () => {
    const list = await getJson<{ noticeId: string; title: string; content?: string }[]>(
      t,
      `${hny}/getCustomerNoticesTitle`,
    );
    expect(list.data.map((n) => n.noticeId)).toEqual(content.customerNotices.map((n) => n.noticeId));
    expect(list.data.every((n) => n.content === undefined)).toBe(true);
    const notice = content.customerNotices[0];
    const one = await getJson<{ noticeId: string; content: string }>(t, `${hny}/getCustomerNoticeById`, {
      noticeId: notice?.noticeId ?? '',
    });
    expect(one.data).toMatchObject({ noticeId: notice?.noticeId, content: notice?.content });
    expect(await getJson(t, `${hny}/getCustomerNoticeById`, { noticeId: 'no-such-notice' })).toMatchObject({
      code: 404,
      message: '公告不存在或已下线',
    });
    expect((await getJson(t, `${hny}/getCustomerNoticeById`)).code).toBe(400);
  });

  it('pages problem guides 5 at a time', async () => {
    const first = await getJson<Paged<{ problemGuideId: string; answer: string }>>(t, `${hny}/getProblemGuidePage`, {
      pageNo: '1',
    });
    expect(first.data).toMatchObject({ pageNo: 1, pageSize: 5, recordsTotal: content.problemGuides.length });
    expect(first.data.data.map((g) => g.problemGuideId)).toEqual(
      content.problemGuides.slice(0, 5).map((g) => g.problemGuideId),
    );
    const second = await getJson<Paged<{ problemGuideId: string }>>(t, `${hny}/getProblemGuidePage`, { pageNo: '2' });
    expect(second.data.data.map((g) => g.problemGuideId)).toEqual(
      content.problemGuides.slice(5, 10).map((g) => g.problemGuideId),
    );
    expect((await getJson(t, `${hny}/getProblemGuidePage`, { pageNo: '-1' })).code).toBe(400);
    expect((await getJson(t, `${hny}/getProblemGuidePage`, { pageSize: '1000' })).code).toBe(400);
  });
});

describe('help', () => {
  it('answers the catalogue with sections and their documents', async () => {
    const body = await getJson<{ key: string; documents: { documentId: string; title: string }[] }[]>(
      t,
      `${help}/getHelpCenter`,
    );
    expect(body.data).toEqual(helpCatalogue(content));
    expect(body.data[0]?.documents[0]?.documentId).toBe(firstHelpDocument(content)?.documentId);
  });

  it('answers a document with its content and section, 404 and 400 otherwise', async () => {
    const doc = firstHelpDocument(content);
    const body = await getJson<{ documentId: string; content: string; key: string }>(t, `${help}/getDocumentInfo`, {
      documentId: doc?.documentId ?? '',
    });
    expect(body.data).toMatchObject({
      documentId: doc?.documentId,
      content: doc?.content,
      key: content.helpSections[0]?.key,
    });
    expect(await getJson(t, `${help}/getDocumentInfo`, { documentId: 'no-such-doc' }, 'id-ID')).toMatchObject({
      code: 404,
      message: 'Dokumen bantuan ini tidak ada.',
    });
    expect((await getJson(t, `${help}/getDocumentInfo`, { documentId: '../etc/passwd' })).code).toBe(400);
  });
});

describe('industry list', () => {
  it('answers the GB/T 4754 sections', async () => {
    const body = await getJson<{ code: string; name: string }[]>(t, '/api/front/system/getIndustryList');
    expect(body.data).toEqual(content.industries);
    expect(body.data.map((i) => i.code)).toEqual(expect.arrayContaining(['A', 'C', 'D']));
  });
});

describe('content in the reader’s language', () => {
  it('answers translated content to a reader of another locale, and never the translations themselves', async () => {
    const english = localizeSiteContent(loadContent('src/content'), 'en-US');
    const industries = await getJson<{ code: string; name: string }[]>(
      t,
      '/api/front/system/getIndustryList',
      {},
      'en-US',
    );
    expect(industries.data).toEqual(english.industries);
    expect(industries.data.find((i) => i.code === 'C')?.name).toBe('Manufacturing');
    const document = await getJson<{ title: string; content: string }>(
      t,
      `${help}/getDocumentInfo`,
      { documentId: 'place-an-order' },
      'pt-BR',
    );
    expect(document.data.title).not.toMatch(/\p{Script=Han}/u);
    const news = await getJson<Paged<NewsRow>>(t, `${hny}/searchPageNews`, { newsTypeCode: 'policy' }, 'id-ID');
    for (const answer of [industries.data, document.data, news.data])
      expect(JSON.stringify(answer)).not.toContain('"translations"');
  });
});
