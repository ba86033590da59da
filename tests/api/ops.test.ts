/**
 * /api/ops/order/*: the operator's order detail and state changes — every allowed transition
 * (with history, notice to the order's user and audit) and every forbidden one (409, status in
 * words, nothing written) — and the role checks of /api/ops.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { orderActions, orderStatuses, orderTransitions, type OrderAction } from '../../src/lib/orderStatus.ts';
import type { OrderDetailData } from '../../src/lib/schemas/order.ts';
import { get, post, type Envelope } from './accountCalls.ts';
import {
  addEnterpriseUser,
  createOrderTestApp,
  type EnterpriseUser,
  footprint,
  getWithHeaders,
  insertOrder,
} from './orderFixtures.ts';
import { apiHeaders, openPerFile } from './harness.ts';

const t = openPerFile(createOrderTestApp);
let operator: string;
let owner: EnterpriseUser;

beforeAll(async () => {
  operator = await t.login('demo_operator');
  owner = await addEnterpriseUser(t, { userName: 'ops_owner', mobile: '13900001001' });
});

const statusWords: Record<number, string> = {
  10: '待受理',
  20: '已受理',
  30: '已生效',
  40: '已完成',
  90: '已取消',
  91: '已驳回',
};
const actionWords: Record<OrderAction, string> = {
  accept: '受理',
  confirm: '确认生效',
  complete: '完成',
  cancel: '取消',
  reject: '驳回',
};

function transition(body: Record<string, string>, cookie = operator): Promise<Envelope<OrderDetailData>> {
  return post<OrderDetailData>(t, '/api/ops/order/transition', body, { cookie });
}

describe('role checks', () => {
  // Separated duties (lib/roles.ts): the orders are the operator's, the audit trail the auditor's.
  const calls: [string, 'GET' | 'POST', string][] = [
    ['/api/ops/order/getOrderDetail?orderNo=HGD20261122000001', 'GET', 'demo_operator'],
    ['/api/ops/order/transition', 'POST', 'demo_operator'],
    ['/api/ops/order/getAntTable', 'POST', 'demo_operator'],
    ['/api/ops/audit/getAntTable', 'POST', 'demo_auditor'],
  ];
  const staff = ['demo_admin', 'demo_operator', 'demo_editor', 'demo_auditor'];

  it('answers 901 without a session and 403 to every role but its duty', async () => {
    for (const [path, method, allowed] of calls) {
      const anonymous =
        method === 'GET' ? await get(t, path) : await post(t, path, { orderNo: 'HGD20261122000001', action: 'accept' });
      expect(anonymous.code, path).toBe(901);
      for (const userName of [
        'demo_person',
        'demo_company',
        'demo_partner',
        ...staff.filter((name) => name !== allowed),
      ]) {
        const cookie = await t.login(userName);
        const answer =
          method === 'GET'
            ? await get(t, path, { cookie })
            : await post(t, path, { orderNo: 'HGD20261122000001', action: 'accept' }, { cookie });
        expect(answer, `${userName} ${path}`).toEqual({ code: 403, message: '没有权限执行此操作', data: {} });
      }
    }
  });

  it("refuses the operator's POSTs without the CSRF headers (403)", async () => {
    const orderNo = await insertOrder(t, owner, { status: 10 });
    const response = await t.app.request('/api/ops/order/transition', {
      method: 'POST',
      headers: { Cookie: operator, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `orderNo=${orderNo}&action=accept`,
    });
    expect(((await response.json()) as Envelope).code).toBe(403);
    expect((await footprint(t, orderNo)).status).toBe(10);
  });
});

describe('GET order/getOrderDetail', () => {
  it("shows any enterprise's order, deleted ones too, with the operator's actions", async () => {
    const orderNo = await insertOrder(t, owner, { status: 10 });
    const answer = await get<OrderDetailData>(t, `/api/ops/order/getOrderDetail?orderNo=${orderNo}`, {
      cookie: operator,
    });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      orderNo,
      status: 10,
      allowedActions: ['accept', 'reject', 'cancel'],
      canDelete: false,
      enterprise: { id: owner.enterpriseId, enterpriseName: 'ops_owner 有限公司' },
    });
    const deleted = await insertOrder(t, owner, { status: 90, deletedAt: new Date() });
    const seen = await get<OrderDetailData>(t, `/api/ops/order/getOrderDetail?orderNo=${deleted}`, {
      cookie: operator,
    });
    expect(seen.data.deletedAt).toMatch(/^\d{4}-/);
    // The owner no longer sees it.
    expect(
      (await get(t, `/api/front/hgdsel/order/getOrderDetail?orderNo=${deleted}`, { cookie: owner.cookie })).code,
    ).toBe(404);
  });

  it('answers 404 for an unknown order and 400 for a malformed number', async () => {
    expect((await get(t, '/api/ops/order/getOrderDetail?orderNo=HGD20991231000001', { cookie: operator })).code).toBe(
      404,
    );
    expect((await get(t, '/api/ops/order/getOrderDetail?orderNo=1%20or%201=1', { cookie: operator })).code).toBe(400);
    expect((await get(t, '/api/ops/order/getOrderDetail', { cookie: operator })).code).toBe(400);
  });
});

describe('POST order/transition: every allowed transition', () => {
  const allowed = orderTransitions
    .filter((tr) => tr.actors.includes('operator'))
    .flatMap((tr) =>
      tr.from.map((from) => ({
        from,
        action: tr.action,
        to: tr.to,
        reason: tr.reasonRequiredFor.includes('operator'),
      })),
    );

  it.each(allowed)('$action from $from → $to', async ({ from, action, to, reason }) => {
    const orderNo = await insertOrder(t, owner, { status: from });
    const before = await footprint(t, orderNo);
    const answer = await transition({ orderNo, action, ...(reason ? { reason: '客户资料不全' } : {}) });
    expect(answer.code).toBe(200);
    expect(answer.message).toBe('订单状态已更新');
    expect(answer.data.status).toBe(to);
    const after = await footprint(t, orderNo);
    expect(after).toMatchObject({
      status: to,
      history: before.history + 1,
      notices: before.notices + 1,
      audit: before.audit + 1,
    });
    expect(after.statusReason).toBe(reason ? '客户资料不全' : '');
    const last = answer.data.history[answer.data.history.length - 1];
    expect(last).toMatchObject({
      fromStatus: from,
      toStatus: to,
      actorRole: 'operator',
      note: reason ? '客户资料不全' : '',
    });
    // The notice went to the order's user, in their words.
    const notices = await get<{ title: string; description: string }[]>(t, '/api/notices', { cookie: owner.cookie });
    const titles: Record<number, string> = {
      20: '订单已受理',
      30: '订单已生效',
      40: '订单已完成',
      90: '订单已被取消',
      91: '订单已驳回',
    };
    expect(notices.data.find((n) => n.description.includes(orderNo))?.title).toBe(titles[to]);
  });

  it('walks one order 10 → 20 → 30 → 40 and shows each step in the detail', async () => {
    const orderNo = await insertOrder(t, owner, { status: 10 });
    for (const action of ['accept', 'confirm', 'complete'] as const) {
      expect((await transition({ orderNo, action })).code).toBe(200);
    }
    const detail = await get<OrderDetailData>(t, `/api/front/hgdsel/order/getOrderDetail?orderNo=${orderNo}`, {
      cookie: owner.cookie,
    });
    expect(detail.data.history.map((h) => h.toStatus)).toEqual([10, 20, 30, 40]);
    expect(detail.data.notices.map((n) => n.title)).toEqual(['订单已完成', '订单已生效', '订单已受理']);
    expect(detail.data.notices[1]?.description).toContain('合同期 2027-01 至 2027-12');
    expect(detail.data.allowedActions).toEqual([]);
  });
});

describe('POST order/transition: every forbidden transition', () => {
  const forbidden = orderStatuses.flatMap((from) =>
    orderActions
      .filter(
        (action) =>
          !orderTransitions.some(
            (tr) =>
              tr.action === action && tr.actors.includes('operator') && (tr.from as readonly number[]).includes(from),
          ),
      )
      .map((action) => ({ from, action })),
  );

  it('covers every status × action pair not in the table', () => {
    expect(forbidden.length).toBe(orderStatuses.length * orderActions.length - 6);
  });

  it.each(forbidden)('$action from $from → 409, nothing changes', async ({ from, action }) => {
    const orderNo = await insertOrder(t, owner, { status: from });
    const before = await footprint(t, orderNo);
    const answer = await transition({ orderNo, action, reason: '测试原因' });
    expect(answer).toEqual({
      code: 409,
      message: `订单当前状态为“${statusWords[from]}”，不能${actionWords[action]}`,
      data: {},
    });
    expect(await footprint(t, orderNo)).toEqual(before);
  });

  it("names the status in the caller's locale", async () => {
    const orderNo = await insertOrder(t, owner, { status: 40 });
    const answer = await post(
      t,
      '/api/ops/order/transition',
      { orderNo, action: 'accept' },
      { cookie: operator, headers: { 'Accept-Language': 'en-US' } },
    );
    expect(answer.message).toBe('The order is Completed; it cannot be accepted');
  });

  it('enterprise cancel is forbidden from every status but submitted (409, nothing changes)', async () => {
    for (const from of orderStatuses.filter((s) => s !== 10)) {
      const orderNo = await insertOrder(t, owner, { status: from });
      const before = await footprint(t, orderNo);
      const answer = await getWithHeaders(t, `/api/front/hgdsel/order/cancelOrder?orderNo=${orderNo}`, owner.cookie);
      expect(answer, String(from)).toEqual({
        code: 409,
        message: `订单当前状态为“${statusWords[from]}”，不能取消`,
        data: {},
      });
      expect(await footprint(t, orderNo)).toEqual(before);
    }
  });
});

describe('POST order/transition: bad and hostile input', () => {
  it('requires a reason for reject and cancel (400) and changes nothing', async () => {
    for (const action of ['reject', 'cancel']) {
      const orderNo = await insertOrder(t, owner, { status: 10 });
      const before = await footprint(t, orderNo);
      for (const reason of [undefined, '', '   ']) {
        const answer = await transition({ orderNo, action, ...(reason === undefined ? {} : { reason }) });
        expect(answer.code, `${action} ${JSON.stringify(reason)}`).toBe(400);
        expect((answer.data as unknown as { errors: { field: string }[] }).errors[0]?.field).toBe('reason');
      }
      expect(await footprint(t, orderNo)).toEqual(before);
    }
  });

  it('refuses unknown actions, malformed numbers and hostile values (400), unknown orders (404)', async () => {
    const orderNo = await insertOrder(t, owner, { status: 10 });
    const before = await footprint(t, orderNo);
    for (const body of [
      { orderNo, action: 'approve' },
      { orderNo, action: "accept' or 1=1 --" },
      { orderNo, action: '' },
      { orderNo: `${orderNo}'; update orders set status=40; --`, action: 'accept' },
      { orderNo, action: 'reject', reason: 'x'.repeat(501) },
      { action: 'accept' },
    ]) {
      expect((await transition(body as Record<string, string>)).code, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const nested = await t.app.request('/api/ops/order/transition', {
      method: 'POST',
      headers: apiHeaders({ Cookie: operator, 'Content-Type': 'application/json' }),
      body: JSON.stringify({ orderNo: [orderNo], action: { toString: 'accept' } }),
    });
    expect(((await nested.json()) as Envelope).code).toBe(400);
    expect(await footprint(t, orderNo)).toEqual(before);
    expect((await transition({ orderNo: 'HGD20991231000001', action: 'accept' })).code).toBe(404);
  });

  it('lets only one of two simultaneous accepts through', async () => {
    const orderNo = await insertOrder(t, owner, { status: 10 });
    const answers = await Promise.all([
      transition({ orderNo, action: 'accept' }),
      transition({ orderNo, action: 'accept' }),
    ]);
    expect(answers.map((a) => a.code).sort()).toEqual([200, 409]);
    expect((await footprint(t, orderNo)).history).toBe(2);
  });
});
