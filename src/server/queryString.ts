/**
 * Query strings and form bodies parsed the way the spec's client libraries expect (qs's defaults,
 * spec §9): nesting with `a[b]` or `a.b` up to depth 5, arrays with `a[]`, `a[0]` or a repeated
 * key, array indexes up to 20 (a larger index becomes an object key), at most 1000 parameters
 * (the rest are ignored). Keys that could reach Object.prototype are dropped.
 * @example parseQueryString('a.b=1&c[]=x&c[]=y&c=z') // { a: { b: '1' }, c: ['x', 'y', 'z'] }
 */

export interface QueryLimits {
  depth: number;
  parameterLimit: number;
  arrayLimit: number;
}

export const queryLimits: QueryLimits = { depth: 5, parameterLimit: 1000, arrayLimit: 20 };

export type ParsedValue = string | File | ParsedValue[] | ParsedObject;
export interface ParsedObject {
  [key: string]: ParsedValue;
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** `a.b[c][]` → ['a', 'b', 'c', '']; segments past `depth` stay together as one key. */
export function splitKey(key: string, depth: number = queryLimits.depth): string[] {
  const dotted = key.replace(/\.([^.[\]]+)/g, '[$1]');
  const open = dotted.indexOf('[');
  if (open <= 0) return [dotted];
  const segments = [dotted.slice(0, open)];
  const pattern = /\[([^[\]]*)\]/y;
  let position = open;
  while (segments.length <= depth) {
    pattern.lastIndex = position;
    const match = pattern.exec(dotted);
    if (!match) break;
    segments.push(match[1] ?? '');
    position = pattern.lastIndex;
  }
  if (position === open) return [dotted];
  // Deeper than allowed, or text after the brackets: the rest is one literal key, as qs does.
  if (position < dotted.length) segments.push(dotted.slice(position));
  return segments;
}

function isIndex(segment: string, limits: QueryLimits): boolean {
  return /^\d+$/.test(segment) && Number(segment) <= limits.arrayLimit;
}

function isContainer(value: ParsedValue | undefined): value is ParsedValue[] | ParsedObject {
  return typeof value === 'object' && value !== null && !(value instanceof File);
}

/** Arrays longer than the limit become objects keyed by index, as qs does. */
function capArray(list: ParsedValue[], limits: QueryLimits): ParsedValue[] | ParsedObject {
  if (list.length <= limits.arrayLimit + 1) return list;
  return Object.fromEntries(list.map((item, index) => [String(index), item]));
}

function combine(existing: ParsedValue | undefined, value: ParsedValue, limits: QueryLimits): ParsedValue {
  if (existing === undefined) return value;
  if (Array.isArray(existing)) return capArray([...existing, value], limits);
  if (isContainer(existing)) return existing;
  return capArray([existing, value], limits);
}

/** Sets one parameter into `target` following its key's path. */
export function assignParameter(
  target: ParsedObject,
  key: string,
  value: string | File,
  limits: QueryLimits = queryLimits,
): void {
  const segments = splitKey(key, limits.depth);
  if (segments.some((segment) => forbiddenKeys.has(segment))) return;
  let container: ParsedObject | ParsedValue[] = target;
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] ?? '';
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    if (Array.isArray(container)) {
      if (last) {
        if (segment === '' || !isIndex(segment, limits)) container.push(value);
        else container[Number(segment)] = combine(container[Number(segment)], value, limits);
        return;
      }
      const index: number = segment === '' || !isIndex(segment, limits) ? container.length : Number(segment);
      const child: ParsedValue | undefined = container[index];
      const made: ParsedObject | ParsedValue[] = isContainer(child)
        ? child
        : next === '' || (next !== undefined && isIndex(next, limits))
          ? []
          : {};
      container[index] = made;
      container = made;
      continue;
    }
    if (last) {
      container[segment] = combine(container[segment], value, limits);
      return;
    }
    const child: ParsedValue | undefined = container[segment];
    if (isContainer(child)) {
      container = child;
      continue;
    }
    const made: ParsedObject | ParsedValue[] = next === '' || (next !== undefined && isIndex(next, limits)) ? [] : {};
    container[segment] = made;
    container = made;
  }
}

/** Removes holes left by sparse indexes (`a[1]=x&a[5]=y` → ['x', 'y']). */
function compact(value: ParsedValue): ParsedValue {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compact);
  if (isContainer(value)) {
    for (const key of Object.keys(value)) value[key] = compact(value[key] as ParsedValue);
  }
  return value;
}

/** Parses `a=1&b[c]=2` (leading `?` allowed). */
export function parseQueryString(input: string, limits: QueryLimits = queryLimits): ParsedObject {
  const result: ParsedObject = {};
  const text = input.startsWith('?') ? input.slice(1) : input;
  if (!text) return result;
  const parts = text.split('&', limits.parameterLimit);
  for (const part of parts) {
    if (!part) continue;
    const equals = part.indexOf('=');
    const rawKey = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? '' : part.slice(equals + 1);
    const key = decode(rawKey);
    if (!key) continue;
    assignParameter(result, key, decode(rawValue), limits);
  }
  return compact(result) as ParsedObject;
}

/** Multipart bodies: the same key rules; file fields stay `File`s. */
export function formDataToObject(form: FormData, limits: QueryLimits = queryLimits): ParsedObject {
  const result: ParsedObject = {};
  let count = 0;
  for (const [key, value] of form.entries()) {
    if (count >= limits.parameterLimit) break;
    count += 1;
    if (key) assignParameter(result, key, value, limits);
  }
  return compact(result) as ParsedObject;
}
