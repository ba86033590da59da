import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { ItemSummary } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';

/**
 * An item's last change as the lists show it: the pending draft (who saved it, when), else the
 * version on the site (who published it, when; the seed's and the system's have no name).
 */
export function lastChangeText(item: ItemSummary, messages: StudioMessages, locale: Locale): string {
  const [name, at] = item.draftAt ? [item.draftBy, item.draftAt] : [item.publishedBy, item.publishedAt];
  if (!at) return '-';
  const when = formatChinaDateTime(at, locale);
  return name ? say(messages, 'studio.at', { name, at: when }) : when;
}
