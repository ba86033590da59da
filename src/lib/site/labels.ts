/** Names of dictionary codes shown on the public pages (build time). */
import { dictionaryName, listIndustries } from '../../content/query.ts';
import type { SiteContent } from '../../content/schemas.ts';

export function voltageNamer(content: SiteContent): (code: string) => string {
  return (code) => dictionaryName(content, 'voltageLevel', code);
}

export function industryNamer(content: SiteContent): (code: string) => string {
  const industries = listIndustries(content);
  return (code) => industries.find((industry) => industry.code === code)?.name ?? code;
}
