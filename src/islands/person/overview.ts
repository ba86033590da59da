/** The overview island's messages (its data: getUserInfo, /api/notices and the latest orders). */
import type { MessageKey } from '../../lib/i18n/index.ts';
import { orderStatusKeys } from '../order/orderView.ts';
import { authStatusKeys } from './personData.ts';

/** How many of the newest notices the overview lists. */
export const OVERVIEW_NOTICE_COUNT = 5;
/** How many of the enterprise's newest orders it lists. */
export const OVERVIEW_ORDER_COUNT = 5;

export const overviewMessageKeys = [
  ...authStatusKeys,
  ...orderStatusKeys,
  'ordering.list.newOrder',
  'account.common.dash',
  'account.common.loadFailed',
  'account.common.retry',
  'account.role.individual',
  'account.role.enterprise',
  'account.role.partner',
  'account.role.operator',
  'account.role.editor',
  'account.role.admin',
  'account.role.auditor',
  'account.overview.meTitle',
  'account.overview.roles',
  'account.overview.memberSince',
  'account.overview.editAccount',
  'account.overview.enterpriseTitle',
  'account.overview.noEnterprise',
  'account.overview.bind',
  'account.overview.certStatus',
  'account.overview.certify',
  'account.overview.enterpriseDetail',
  'account.overview.ordersTitle',
  'account.overview.ordersEmpty',
  'account.overview.browseProducts',
  'account.overview.allOrders',
  'account.overview.noticesTitle',
  'account.overview.noticesEmpty',
  'account.notices.unread',
  'account.notices.type.notification',
  'account.notices.type.message',
  'account.notices.type.event',
  'common.loading',
  'field.name',
  'field.userName',
  'field.phone',
  'field.email',
  'field.enterpriseName',
  'field.clearanceAccount',
] as const satisfies readonly MessageKey[];

export type OverviewMessages = Record<(typeof overviewMessageKeys)[number], string>;
