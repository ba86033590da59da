/**
 * Input of a call: the query string or the body (form-urlencoded by default, JSON, or multipart),
 * parsed with the spec's limits and checked by the call's zod schema. A failure answers code 400
 * with one message — the first issue, in the caller's locale — and every issue in `data.errors`.
 * @example const { phone } = await validate(c, checkPhoneQuery, 'query');
 */
import { z } from 'zod';
import { ApiCode, type ValidationErrorData } from '../lib/apiCodes.ts';
import { format } from '../lib/api/messages.ts';
import { translator } from '../lib/i18n/index.ts';
import { localizeIssues } from '../lib/schemas/issues.ts';
import { controlCharacterIssues } from '../lib/schemas/text.ts';
import { ApiError } from './apiError.ts';
import { isMessageKey, localeOf, type AnyContext } from './envelope.ts';
import { formDataToObject, parseQueryString, type ParsedObject } from './queryString.ts';

export type InputSource = 'query' | 'body';

const bodies = new WeakMap<Request, Promise<unknown>>();

/** The request's query string as an object. */
export function readQuery(c: AnyContext): ParsedObject {
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start === -1) return {};
  const end = url.indexOf('#', start);
  return parseQueryString(url.slice(start + 1, end === -1 ? undefined : end));
}

/** The request body as an object (parsed once per request); unreadable → 400 `validation.body`. */
export function readBody(c: AnyContext): Promise<unknown> {
  const raw = c.req.raw;
  let parsed = bodies.get(raw);
  if (!parsed) {
    parsed = parseBody(c);
    bodies.set(raw, parsed);
  }
  return parsed;
}

async function parseBody(c: AnyContext): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  try {
    if (type === 'multipart/form-data') return formDataToObject(await c.req.formData());
    const text = await c.req.text();
    if (type === 'application/json' || type.endsWith('+json')) {
      return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
    }
    if (type === '' || type === 'application/x-www-form-urlencoded' || type === 'text/plain') {
      return parseQueryString(text);
    }
  } catch {
    // Malformed JSON, a broken multipart stream: fall through to the 400 below.
  }
  throw new ApiError(ApiCode.BAD_REQUEST, 'validation.body');
}

/** Reads and validates one input of the call; throws ApiError 400 on failure. */
export async function validate<S extends z.core.$ZodType>(
  c: AnyContext,
  schema: S,
  source: InputSource,
): Promise<z.output<S>> {
  return check(c, schema, source === 'query' ? readQuery(c) : await readBody(c));
}

/**
 * Checks a value already read (a part of the input with a rule of its own); the same 400 as
 * `validate`. `messages` replaces dictionary texts for this check (the studio's field labels, as
 * its form shows them), so the server's messages and the browser's name a field alike.
 */
export async function check<S extends z.core.$ZodType>(
  c: AnyContext,
  schema: S,
  input: unknown,
  messages?: Readonly<Record<string, string>>,
): Promise<z.output<S>> {
  // Control characters are refused in every field before the schema runs (src/lib/schemas/text.ts).
  const unclean = controlCharacterIssues(input);
  const result = unclean.length ? undefined : await z.safeParseAsync(schema, input);
  if (result?.success) return result.data;
  const base = translator(localeOf(c));
  const t: typeof base = messages
    ? (key, vars) => (Object.hasOwn(messages, key) ? format(messages[key] ?? key, vars) : base(key, vars))
    : base;
  const errors = localizeIssues(result?.error.issues ?? unclean, {
    input,
    schema,
    t,
    hasKey: isMessageKey,
  });
  const data: ValidationErrorData = { errors };
  const first = errors[0]?.message ?? t('validation.default', { label: '' });
  throw new ApiError(ApiCode.BAD_REQUEST, 'validation.default', undefined, data, first);
}
