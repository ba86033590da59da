/**
 * The messages the studio's islands receive: the `studio.*` keys of the studio namespace, plus
 * the labels of the content fields (by field name) and the validation texts of the editor.
 */
import type studio from '../i18n/messages/studio/zh-CN.json';
import { format } from '../api/messages.ts';

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
