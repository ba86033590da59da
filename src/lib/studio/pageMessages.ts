/**
 * The studio islands' messages, the labels of every content field and the editor's validation
 * texts, for one locale: read at build time by the studio's .astro pages (passed to the islands
 * as props) and by the API, which checks a saved item with the same texts. Never shipped to the
 * browser whole.
 */
import { contentKinds } from '../../content/paths.ts';
import studio from '../i18n/messages/studio/index.ts';
import { dictionaries, pick } from '../i18n/index.ts';
import type { Locale } from '../i18n/locales.ts';
import { validationMessages, type ValidationMessages } from '../i18n/formMessages.ts';
import { fieldNames, fieldTreeOfKind } from './formModel.ts';
import type { FieldLabels, StudioKey, StudioMessages } from './messages.ts';

const studioKeys = Object.keys(studio['zh-CN']).filter((key): key is StudioKey => key.startsWith('studio.'));

export function studioMessages(locale: Locale): StudioMessages {
  return pick(locale, studioKeys);
}

/** Every field name of every kind of content. */
export function contentFieldNames(): string[] {
  const names = new Set<string>();
  for (const kind of contentKinds) fieldNames(fieldTreeOfKind(kind), names);
  return [...names];
}

/**
 * The label of each content field: `field.<name>` of the dictionaries, except where that word
 * means something else elsewhere in the portal (`field.name` is a person's name, 姓名; a content
 * item has a 名称) — then the studio's own `studio.label.<name>`.
 */
export function fieldLabels(locale: Locale): FieldLabels {
  const dictionary: Readonly<Record<string, string>> = dictionaries[locale];
  return Object.fromEntries(
    contentFieldNames().map((name) => [
      name,
      dictionary[`studio.label.${name}`] ?? dictionary[`field.${name}`] ?? name,
    ]),
  );
}

/**
 * The validation texts, with the content fields' labels as `field.<name>`, so a message names
 * the field as the form does ("请输入名称", not "请输入姓名"). `code` is read as the SMS code's
 * label by the shared issue formatter (fieldLabelAliases), so the content's `code` takes it.
 */
export function studioValidation(locale: Locale): ValidationMessages {
  const labels = fieldLabels(locale);
  const own = Object.fromEntries(Object.entries(labels).map(([name, label]) => [`field.${name}`, label]));
  return { ...validationMessages(locale), ...own, 'field.smsCode': labels['code'] ?? 'code' };
}
