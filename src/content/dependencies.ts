/**
 * Which parts of the content a page read, so that a change re-renders only the pages it can alter
 * (incremental publication: src/content/pageGraph.ts, docs/editing-content.md).
 *
 * A *content key* names one part of the loaded content:
 *
 *   `#news`                       a top-level collection: for one made of item files, which items
 *                                 and in what order; for one loaded from a single file, all of it
 *   `news/abc.md#title`           one top-level field of an object loaded from its own item file
 *                                 (the loader tags such objects with their file: `tagSource`)
 *
 * `trackReads` wraps the content so that every property read records the key it falls under:
 * a read anywhere inside a tagged object's field (`region.banners[0].image`) records that field's
 * key, a read of a collection records the collection's key. `contentFingerprints` gives every key
 * of a loaded content its value as text, so that two contents' difference is the set of keys whose
 * text differs (`changedKeys`). A page whose read keys miss that set renders the same bytes.
 */
import type { SiteContent } from './schemas.ts';

/**
 * The tables of tagged objects and proxies live on globalThis, as the page graph's recorder does:
 * the build's integration (Astro's config) fingerprints the props the page bundle's loader made.
 */
interface ContentTags {
  /** Objects loaded from their own item file, by that file's path. */
  sources: WeakMap<object, string>;
  /** Tagged objects localized into another locale than the content's own (tagLocalized). */
  translated: WeakSet<object>;
  /** Each recording proxy's target: fingerprints and tags look through proxies without recording. */
  targets: WeakMap<object, object>;
}
const tagsKey = Symbol.for('hgd.contentTags');
const tags = ((globalThis as typeof globalThis & { [tagsKey]?: ContentTags })[tagsKey] ??= {
  sources: new WeakMap(),
  translated: new WeakSet(),
  targets: new WeakMap(),
});
const { sources, targets } = tags;

/** Marks `value` as loaded from the item file `source` (a content_items path). */
export function tagSource<T extends object>(value: T, source: string): T {
  sources.set(value, source);
  return value;
}

/** The item file `value` was loaded from, when it was tagged. */
export function sourceOf(value: object): string | undefined {
  return sources.get(value);
}

/**
 * Tagged objects localized into a locale other than the content's own: what a page reads of
 * them may come from their `translations`, so every read records that field's key too.
 */
const translatedObjects = tags.translated;

/** Marks `localized`, made from the tagged `original` for a page in another locale (translations.ts). */
export function tagLocalized<T extends object>(localized: T, original: object, translated: boolean): T {
  const source = sources.get(original);
  if (source === undefined) return localized;
  sources.set(localized, source);
  if (translated) translatedObjects.add(localized);
  return localized;
}

/** Called with each content key a page reads. */
export type ReadRecorder = (key: string) => void;

/** The object behind a recording proxy (itself when it is none): what identity-keyed tables know. */
export function unwrap<T>(value: T): T {
  return (typeof value === 'object' && value !== null ? (targets.get(value) as T | undefined) : undefined) ?? value;
}

function isTraversable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * The content seen through a recorder: `current()` answers the recorder of the page being rendered
 * (undefined between pages: nothing is recorded). Proxies are made once per object, so identity
 * comparisons between values read at different times still hold.
 */
export function trackReads(content: SiteContent, current: () => ReadRecorder | undefined): SiteContent {
  const proxies = new WeakMap<object, object>();
  const record = (key: string) => current()?.(key);

  /** `owner` is the key every read inside an untagged value records. */
  function wrap(value: unknown, owner: string): unknown {
    if (!isTraversable(value)) return value;
    const cached = proxies.get(value);
    if (cached) return cached;
    const source = sources.get(value);
    const keyOf = source === undefined ? () => owner : (property: string) => `${source}#${property}`;
    // A field of a localized object may be its translation: reading it reads the translations.
    const alsoRecord = source !== undefined && translatedObjects.has(value) ? `${source}#translations` : undefined;
    const proxy = new Proxy(value, {
      get(target, property, receiver) {
        const child = Reflect.get(target, property, receiver) as unknown;
        if (typeof property === 'symbol' || typeof child === 'function') return child;
        const key = keyOf(property);
        record(key);
        if (alsoRecord) record(alsoRecord);
        return wrap(child, key);
      },
      has(target, property) {
        if (typeof property === 'string') record(keyOf(property));
        return Reflect.has(target, property);
      },
      ownKeys(target) {
        const keys = Reflect.ownKeys(target);
        for (const key of keys) if (typeof key === 'string') record(keyOf(key));
        return keys;
      },
      getOwnPropertyDescriptor(target, property) {
        if (typeof property === 'string') record(keyOf(property));
        return Reflect.getOwnPropertyDescriptor(target, property);
      },
    });
    proxies.set(value, proxy);
    targets.set(proxy, value);
    return proxy;
  }

  const root = new Proxy(content, {
    get(target, property, receiver) {
      const child = Reflect.get(target, property, receiver) as unknown;
      if (typeof property === 'symbol') return child;
      const key = `#${property}`;
      record(key);
      return wrap(child, key);
    },
  });
  targets.set(root, content);
  return root;
}

/** JSON text of a value in which every tagged object stands as its source. */
function textOf(value: unknown): string {
  return (
    JSON.stringify(value, function replace(this: unknown, key: string, child: unknown) {
      const raw = unwrap(child);
      // The value itself (key '') is written out; tagged objects inside it by name only.
      if (key !== '' && typeof raw === 'object' && raw !== null) {
        const source = sources.get(raw);
        if (source !== undefined) return { '@': source };
      }
      return raw;
    }) ?? 'undefined'
  );
}

/** Every content key of `content` with its value as text (see the file's header). */
export function contentFingerprints(content: SiteContent): Map<string, string> {
  const keys = new Map<string, string>();
  const raw = unwrap(content) as unknown as Record<string, unknown>;
  const visit = (value: unknown): void => {
    const target = unwrap(value);
    if (!isTraversable(target)) return;
    const source = sources.get(target);
    if (source !== undefined) {
      for (const [field, child] of Object.entries(target)) keys.set(`${source}#${field}`, textOf(child));
    }
    for (const child of Object.values(target)) visit(child);
  };
  for (const [field, value] of Object.entries(raw)) {
    keys.set(`#${field}`, textOf(value));
    visit(value);
  }
  return keys;
}

/** The keys whose value differs between two contents (added and removed keys included). */
export function changedKeys(before: Map<string, string>, after: Map<string, string>): Set<string> {
  const changed = new Set<string>();
  for (const [key, text] of after) if (before.get(key) !== text) changed.add(key);
  for (const key of before.keys()) if (!after.has(key)) changed.add(key);
  return changed;
}

/**
 * A page's props from `getStaticPaths` as text, tagged objects by name: which items a page was
 * given (a list page's slice, a detail page's item) — their fields are covered by its reads.
 */
export function propsFingerprint(props: unknown): string {
  return textOf(unwrap(props));
}
