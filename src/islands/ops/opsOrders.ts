/** The operator's order queue (/ops/orders): its messages and how an action is named. */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { OrderAction } from '../../lib/orderStatus.ts';
import { orderFactsMessageKeys } from '../order/orderDetail.ts';
import { orderColumnMessageKeys, orderFilterMessageKeys } from '../order/orderList.ts';
import { dataTableMessageKeys } from '../table/dataTable.ts';

export const actionKeys = {
  accept: 'ops.action.accept',
  confirm: 'ops.action.confirm',
  complete: 'ops.action.complete',
  cancel: 'ops.action.cancel',
  reject: 'ops.action.reject',
} as const satisfies Record<OrderAction, MessageKey>;

export const opsOrdersMessageKeys = [
  ...dataTableMessageKeys,
  ...orderFilterMessageKeys,
  ...orderColumnMessageKeys,
  ...orderFactsMessageKeys,
  'page.opsOrders.title',
  'certify.field.enterpriseName',
  'ordering.retry',
  'ordering.detail.loadFailed',
  'ordering.detail.actions',
  'ops.orders.filterLabel',
  'ops.orders.keywordHint',
  'ops.orders.deleted',
  'ops.orders.empty',
  'ops.orders.open',
  'ops.orders.openLabel',
  'ops.orders.view',
  'ops.orders.viewLabel',
  'ops.orders.detailTitle',
  'ops.orders.closeDetail',
  'ops.orders.noActions',
  'ops.action.accept',
  'ops.action.confirm',
  'ops.action.complete',
  'ops.action.cancel',
  'ops.action.reject',
  'ops.action.title',
  'ops.action.body',
  'ops.action.reason',
  'ops.action.reasonHint',
  'ops.action.reasonRequired',
  'ops.action.reasonTooLong',
  'ops.action.submit',
  'ops.action.busy',
  'ops.action.back',
  'ops.action.done',
] as const satisfies readonly MessageKey[];

export type OpsOrdersMessages = Record<(typeof opsOrdersMessageKeys)[number], string>;
