/**
 * Every status the portal shows as a badge, mapped to one tone, and each tone to one daisyUI badge
 * class: the same kind of state looks the same on every page (waiting amber, moving blue, in force
 * green, finished dark, stopped outlined, sent back red). The islands use `StatusBadge.tsx`, the
 * static pages `StatusBadge.astro`; tests/unit/statusBadges.test.ts checks that each tone's text
 * reads on its background (WCAG AA, 4.5:1) with the theme's colours.
 */
export const badgeTones = ['waiting', 'moving', 'positive', 'finished', 'stopped', 'refused'] as const;
export type BadgeTone = (typeof badgeTones)[number];

/** The daisyUI class of each tone; its colours are the theme's (src/styles/theme.css). */
export const badgeToneClass: Record<BadgeTone, string> = {
  waiting: 'badge-warning',
  // Primary rather than info: white on the theme's info blue is 3.7:1, under AA.
  moving: 'badge-primary',
  positive: 'badge-success',
  finished: 'badge-neutral',
  // An outline: the ghost badge's pale grey on white all but vanished beside the others.
  stopped: 'badge-outline',
  refused: 'badge-error',
};

/** Order status (src/lib/orderStatus.ts): 待受理, 已受理, 已生效, 已完成, 已取消, 已驳回. */
const orderTones: Record<number, BadgeTone> = {
  10: 'waiting',
  20: 'moving',
  30: 'positive',
  40: 'finished',
  90: 'stopped',
  91: 'refused',
};

/** Enterprise certification status (authStatus): 未认证, 审核中, 已认证, 已退回. */
const authTones: Record<number, BadgeTone> = { 0: 'stopped', 1: 'moving', 2: 'positive', 3: 'refused' };

/** Settlement record status: 预结算 (may still change), 正式结算 (final). */
const settlementTones: Record<number, BadgeTone> = { 1: 'waiting', 2: 'positive' };

/** A product's package on sale or off sale (the public product pages). */
const saleTones: Record<'online' | 'offline', BadgeTone> = { online: 'positive', offline: 'stopped' };

/** A studio item against the published site: unchanged, changed, new, to be removed. */
const itemTones: Record<'published' | 'changed' | 'new' | 'deleted', BadgeTone> = {
  published: 'positive',
  changed: 'waiting',
  new: 'moving',
  deleted: 'refused',
};

/** A publication's build. */
const buildTones: Record<'running' | 'succeeded' | 'failed', BadgeTone> = {
  running: 'moving',
  succeeded: 'positive',
  failed: 'refused',
};

/** A scheduled publication or removal; `due`: its time has come and it has not started yet. */
const scheduleTones: Record<'scheduled' | 'due' | 'running' | 'done' | 'failed' | 'cancelled', BadgeTone> = {
  scheduled: 'moving',
  due: 'waiting',
  running: 'waiting',
  done: 'positive',
  failed: 'refused',
  cancelled: 'stopped',
};

/** A content object's translation into one locale: none yet, some fields, all. */
const translationTones: Record<'none' | 'partly' | 'done', BadgeTone> = {
  none: 'stopped',
  partly: 'waiting',
  done: 'positive',
};

/** A person's second factor: on or off. */
const secondFactorTones: Record<'on' | 'off', BadgeTone> = { on: 'positive', off: 'stopped' };

export const statusTones = {
  order: orderTones,
  auth: authTones,
  settlement: settlementTones,
  sale: saleTones,
  item: itemTones,
  build: buildTones,
  schedule: scheduleTones,
  translation: translationTones,
  secondFactor: secondFactorTones,
} as const;
export type StatusKind = keyof typeof statusTones;

/** The tone of one status; a code the map does not know is grey rather than an error. */
export function statusTone<K extends StatusKind>(kind: K, status: keyof (typeof statusTones)[K] | number): BadgeTone {
  return (statusTones[kind] as Record<string | number, BadgeTone>)[status as string | number] ?? 'stopped';
}

/** The classes of a status badge: `badge`, its size when given, and its tone's colour. */
export function statusBadgeClass<K extends StatusKind>(
  kind: K,
  status: keyof (typeof statusTones)[K] | number,
  size?: 'sm' | 'xs',
): string {
  return ['badge', size && `badge-${size}`, 'whitespace-nowrap', badgeToneClass[statusTone(kind, status)]]
    .filter(Boolean)
    .join(' ');
}
