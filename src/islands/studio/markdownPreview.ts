/**
 * The preview beside a Markdown field: what the editor is told about each thing the site's
 * renderer removed (src/content/markdown.ts reports it; the server's preview call answers it).
 */
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatCount } from '../../lib/i18n/plural.ts';
import type { DroppedItem } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';

/** Waited after the last keystroke before the preview is asked for. */
export const previewDelayMs = 300;

/** One line of the "removed" notice: what went, and how often when more than once. */
export function droppedText(messages: StudioMessages, locale: Locale, item: DroppedItem): string {
  let text: string;
  if (item.kind === 'tag') text = say(messages, 'studio.edit.droppedTag', { tag: item.tag });
  else if (item.kind === 'attribute')
    text = say(messages, 'studio.edit.droppedAttribute', { tag: item.tag, attribute: item.attribute });
  else if (item.scheme !== null && item.tag === 'a')
    text = say(messages, 'studio.edit.droppedLink', { scheme: item.scheme, url: item.url });
  else if (item.scheme !== null && item.tag === 'img')
    text = say(messages, 'studio.edit.droppedImage', { scheme: item.scheme, url: item.url });
  else text = say(messages, 'studio.edit.droppedAddress', { tag: item.tag, url: item.url });
  return item.count > 1 ? `${text} ${formatCount(messages, 'studio.edit.droppedTimes', locale, item.count)}` : text;
}
