/** /api/notices: the logged-in user's notices, counts, mark read, clear a type. */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { NoticeCountsData, NoticeData } from '../../src/lib/schemas/account.ts';
import { notices, users } from '../../src/server/db/schema/index.ts';
import { createNotice } from '../../src/server/services/notices.ts';
import { get, post } from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

async function userId(userName: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return row?.id ?? 0;
}

describe('GET /api/notices', () => {
  it('answers 901 without a session', async () => {
    expect(await get(t, '/api/notices')).toEqual({ code: 901, message: '登录已失效，请重新登录', data: {} });
    expect((await post(t, '/api/notices/read', { id: 1 })).code).toBe(901);
  });

  it("lists the user's own notices, newest first, in the store's shape", async () => {
    const cookie = await t.login('demo_company');
    const answer = await get<NoticeData[]>(t, '/api/notices', { cookie });
    expect(answer.code).toBe(200);
    // The seeded orders' notices (seed/demoOrders.ts) come between these; they are tested with the orders.
    const seeded = answer.data.filter((n) => !n.title.startsWith('订单'));
    expect(seeded.map((n) => n.title)).toEqual(['账户在新设备登录', '2026 年度零售套餐已上架', '企业认证已通过']);
    expect(seeded[0]).toEqual({
      id: expect.any(Number),
      type: 'event',
      title: '账户在新设备登录',
      description: expect.stringContaining('修改密码'),
      datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      read: false,
    });
    expect(seeded[2]?.read).toBe(true);
    // Someone else's notices are not in the list.
    const others = await get<NoticeData[]>(t, '/api/notices', { cookie: await t.login('demo_person') });
    expect(others.data.map((n) => n.id)).not.toContain(answer.data[0]?.id);
  });

  it('filters by type and rejects an unknown type', async () => {
    const cookie = await t.login('demo_company');
    const messages = await get<NoticeData[]>(t, '/api/notices?type=message', { cookie });
    expect(messages.data.map((n) => n.type)).toEqual(['message']);
    expect((await get(t, '/api/notices?type=spam', { cookie })).code).toBe(400);
  });
});

describe('counts, mark read, clear', () => {
  it('counts per type and in all, and recounts after marking one read', async () => {
    const cookie = await t.login('demo_partner');
    const counts = await get<NoticeCountsData>(t, '/api/notices/counts', { cookie });
    expect(counts.data).toEqual({
      totalCount: 2,
      unreadCount: 1,
      byType: {
        notification: { totalCount: 1, unreadCount: 0 },
        message: { totalCount: 0, unreadCount: 0 },
        event: { totalCount: 1, unreadCount: 1 },
      },
    });
    const list = await get<NoticeData[]>(t, '/api/notices', { cookie });
    const unread = list.data.find((n) => !n.read);
    const answer = await post<NoticeCountsData>(t, '/api/notices/read', { id: unread?.id ?? 0 }, { cookie });
    expect(answer).toMatchObject({ code: 200, message: '已标记为已读', data: { totalCount: 2, unreadCount: 0 } });
    // Idempotent.
    expect((await post(t, '/api/notices/read', { id: unread?.id ?? 0 }, { cookie })).code).toBe(200);
  });

  it("answers 404 for another user's notice and changes nothing; 400 for a bad id", async () => {
    const owner = await userId('demo_operator');
    const id = await createNotice(t.db, {
      userId: owner,
      type: 'message',
      title: '待审核认证',
      description: '一家企业提交了认证资料',
    });
    const intruder = await t.login('demo_person');
    expect(await post(t, '/api/notices/read', { id }, { cookie: intruder })).toEqual({
      code: 404,
      message: '记录不存在',
      data: {},
    });
    const [row] = await t.db.select().from(notices).where(eq(notices.id, id));
    expect(row?.readAt).toBeNull();
    expect((await post(t, '/api/notices/read', { id: 'abc' }, { cookie: intruder })).code).toBe(400);
    expect((await post(t, '/api/notices/read', {}, { cookie: intruder })).code).toBe(400);
  });

  it("clears every notice of one type, only the user's own", async () => {
    const cookie = await t.login('demo_operator');
    const before = await get<NoticeCountsData>(t, '/api/notices/counts', { cookie });
    expect(before.data.byType.message.totalCount).toBeGreaterThan(0);
    const personBefore = await get<NoticeCountsData>(t, '/api/notices/counts', {
      cookie: await t.login('demo_person'),
    });
    const answer = await post<NoticeCountsData>(t, '/api/notices/clear', { type: 'message' }, { cookie });
    expect(answer).toMatchObject({ code: 200, message: '已清空该类通知' });
    expect(answer.data.byType.message).toEqual({ totalCount: 0, unreadCount: 0 });
    expect(answer.data.totalCount).toBe(before.data.totalCount - before.data.byType.message.totalCount);
    const personAfter = await get<NoticeCountsData>(t, '/api/notices/counts', { cookie: await t.login('demo_person') });
    expect(personAfter.data).toEqual(personBefore.data);
    expect((await post(t, '/api/notices/clear', { type: 'all' }, { cookie })).code).toBe(400);
  });
});
