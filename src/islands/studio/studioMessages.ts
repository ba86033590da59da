/**
 * The messages the studio's islands receive: the `studio.*` keys of the studio namespace, plus
 * the labels of the content fields (by field name) and the validation texts of the editor.
 */
import type studio from '../../lib/i18n/messages/studio/zh-CN.json';
import { format } from '../../lib/api/messages.ts';
import type { ItemState } from './studioApi.ts';

type StudioNamespaceKey = keyof typeof studio;
export type StudioKey = Extract<StudioNamespaceKey, `studio.${string}`>;
export type StudioMessages = Readonly<Record<StudioKey, string>>;

/** Field name → its label in the page's locale (`title` → 标题). */
export type FieldLabels = Readonly<Record<string, string>>;

/** A message with its `{name}` placeholders filled. */
export function say(
  messages: StudioMessages,
  key: StudioKey,
  vars?: Readonly<Record<string, string | number>>,
): string {
  return format(messages[key], vars);
}

/** The daisyUI colour of a state; the state is always also written in words beside it. */
export const stateBadge: Readonly<Record<ItemState, string>> = {
  published: 'badge-success',
  changed: 'badge-warning',
  new: 'badge-info',
  deleted: 'badge-error',
};
