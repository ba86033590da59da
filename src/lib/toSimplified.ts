/**
 * Traditional Chinese to simplified for search queries: OpenCC's dictionaries (Taiwan's variants
 * and phrases, then traditional to simplified characters and phrases), the tables only. The
 * content is written in simplified characters, so a visitor who types 電價 is asked about 电价
 * too. Loaded with the search bundle, never with the page (about 25 KB compressed).
 */
import type { ToSimplified } from './search.ts';

let converter: Promise<ToSimplified> | undefined;

export function loadToSimplified(): Promise<ToSimplified> {
  converter ??= (async () => {
    const [{ ConverterFactory }, { default: fromTaiwan }, { default: toMainland }] = await Promise.all([
      import('opencc-js/core'),
      import('opencc-js/from/tw'),
      import('opencc-js/to/cn'),
    ]);
    return ConverterFactory(fromTaiwan, toMainland);
  })();
  converter.catch(() => (converter = undefined));
  return converter;
}
