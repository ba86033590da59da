/** Names of dictionary codes shown on the public pages (build time), in the content's locale. */
import { getDictionary, listIndustries } from '../../content/query.ts';
import type { SiteContent } from '../../content/schemas.ts';
import { contentLang } from '../../content/translations.ts';

/** Names of codes joined as the page's language lists them, and `'zh-CN'` when any is not translated yet. */
export interface NamedList {
  text: string;
  lang: string | undefined;
}
export type CodeNamer = (codes: readonly string[]) => NamedList;

function namer(entries: readonly { code: string; name: string }[], locale: string): CodeNamer {
  const separator = locale.startsWith('zh') ? '、' : ', ';
  return (codes) => {
    const found = codes.map((code) => entries.find((entry) => entry.code === code));
    return {
      text: codes.map((code, index) => found[index]?.name ?? code).join(separator),
      lang: found.some((entry) => entry && contentLang(entry, 'name')) ? 'zh-CN' : undefined,
    };
  };
}

/** `content` is the page's localized content (siteContent(locale)). */
export function voltageNamer(content: SiteContent, locale: string): CodeNamer {
  return namer(getDictionary(content, 'voltageLevel') ?? [], locale);
}

export function industryNamer(content: SiteContent, locale: string): CodeNamer {
  return namer(listIndustries(content), locale);
}
