/**
 * /api/front/external/hnyData/*: news (type tabs from the `newsType` dictionary, pages of 5),
 * dictionaries, customer notices (公告) and problem guides (spec §7, "Notices, news, help").
 * Paged answers carry `data` and `recordsTotal` (spec §3) inside the envelope's data.
 */
import { Hono } from 'hono';
import { getDictionary, listCustomerNotices, pageNews, pageProblemGuides } from '../../content/query.ts';
import {
  customerNoticeQuery,
  dictionaryQuery,
  newsPageQuery,
  newsQuery,
  problemGuidePageQuery,
} from '../../lib/schemas/content.ts';
import { ApiCode } from '../../lib/apiCodes.ts';
import { ApiError } from '../apiError.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireCustomerNotice, requireDictionary, requireNews } from '../services/contentLookup.ts';
import { contentStore } from '../services/contentStore.ts';
import { newsDetail, newsListItem } from '../services/contentViews.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createHnyDataRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get(
    '/getDictionaryByCategoryCode',
    describeCall({ summary: 'Get dictionary by category code', query: dictionaryQuery }),
    async (c) => {
      const { categoryCode } = await validate(c, dictionaryQuery, 'query');
      return ok(c, requireDictionary(contentStore.localized(localeOf(c)), categoryCode));
    },
  );

  routes.get(
    '/searchPageNews',
    describeCall({
      summary: 'A page of news of one type',
      query: newsPageQuery,
      codes: { 404: '`content.newsTypeUnknown`' },
    }),
    async (c) => {
      const { newsTypeCode, pageNo, pageSize } = await validate(c, newsPageQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      if (
        newsTypeCode !== undefined &&
        !(getDictionary(content, 'newsType') ?? []).some((type) => type.code === newsTypeCode)
      ) {
        throw new ApiError(ApiCode.NOT_FOUND, 'content.newsTypeUnknown');
      }
      const page = pageNews(
        content,
        newsTypeCode === undefined ? { pageNo, pageSize } : { newsTypeCode, pageNo, pageSize },
      );
      return ok(c, { ...page, data: page.data.map((item) => newsListItem(content, item)) });
    },
  );

  routes.get('/getNewsById', describeCall({ summary: 'Get news by id', query: newsQuery }), async (c) => {
    const { newsId } = await validate(c, newsQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    return ok(c, newsDetail(content, requireNews(content, newsId)));
  });

  routes.get('/getCustomerNoticesTitle', describeCall({ summary: 'Titles of the customer notices' }), (c) =>
    ok(
      c,
      listCustomerNotices(contentStore.localized(localeOf(c))).map(({ noticeId, title, date, source }) => ({
        noticeId,
        title,
        date,
        source,
      })),
    ),
  );

  routes.get(
    '/getCustomerNoticeById',
    describeCall({ summary: 'Get customer notice by id', query: customerNoticeQuery }),
    async (c) => {
      const { noticeId } = await validate(c, customerNoticeQuery, 'query');
      return ok(c, requireCustomerNotice(contentStore.localized(localeOf(c)), noticeId));
    },
  );

  routes.get(
    '/getProblemGuidePage',
    describeCall({ summary: 'Get problem guide page', query: problemGuidePageQuery }),
    async (c) => {
      const { pageNo, pageSize } = await validate(c, problemGuidePageQuery, 'query');
      return ok(c, pageProblemGuides(contentStore.localized(localeOf(c)), { pageNo, pageSize }));
    },
  );

  return routes;
}
