/**
 * How a route says what it is, next to its registration, for the API description
 * (docs/api-description.md): `describeCall({ summary, query | body, answer, codes })` is a
 * middleware that does nothing at request time and carries the description for hono-openapi's
 * generator, which walks `app.routes` (so there is no second list of routes). The schemas are the
 * very objects the handler passes to `validate`; they are turned into JSON Schema (zod 4's
 * `z.toJSONSchema`) only when the document is first asked for.
 *
 * Codes a guard answers are carried by the guard itself (`answersCodes`): `requireSession` adds
 * 901 to every route behind it, `requireRole` 901 and 403, wherever it is registered.
 * @example routes.get('/items', describeCall({ summary: 'Items of a kind', query: studioKindQuery }), handler)
 */
import type { MiddlewareHandler } from 'hono';
import { uniqueSymbol } from 'hono-openapi';
import { z } from 'zod';
import { ApiCode } from '../../lib/apiCodes.ts';
import { uploadedFileSchema } from '../../lib/schemas/fields.ts';

type Schema = z.core.$ZodType;
/** JSON Schema (draft 2020-12) as zod writes it: the keywords this code reads, and any other. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** An OpenAPI 3.1 parameter (the query's fields, the same-origin header). */
export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path';
  required?: boolean;
  style?: 'form' | 'simple';
  explode?: boolean;
  description?: string;
  schema: JsonSchema;
}

/** An OpenAPI 3.1 operation, as far as this code writes and reads it; `x-…` extensions travel in it. */
export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, unknown>;
  tags?: string[];
  security?: Record<string, string[]>[];
  hide?: boolean;
  [extension: `x-${string}`]: unknown;
}

/** Why an envelope code can come back, keyed by the code (merged over the route's guards and its own). */
export type CodeReasons = Readonly<Record<number, string>>;

/** The operation extension the codes travel in until the document is finished (openapi/document.ts). */
export const codesExtension = 'x-envelope-codes';

export interface CallDescription {
  /** One line: what the call does. */
  summary: string;
  /** More words, when the summary cannot say it all. */
  description?: string;
  /** The query string the handler validates (`validate(c, schema, 'query')`). */
  query?: Schema;
  /** The body the handler validates (`validate(c, schema, 'body')`): form-urlencoded by default, or JSON; multipart when it takes a file. */
  body?: Schema;
  /** The schema of `data` in a successful answer (`{}` when omitted). */
  answer?: Schema;
  /** A file answer instead of an envelope (its media type); failures still answer an envelope. */
  download?: string;
  /** Codes the handler or its services answer besides validation's 400 and the guards' (e.g. 404 with its reason). */
  codes?: CodeReasons;
  /** Part of the operators' tooling, not of the portal's contract: left out of the published document. */
  internal?: boolean;
}

/** What hono-openapi reads from a middleware: `[uniqueSymbol]: { spec }` (a getter here, so nothing is converted until asked). */
interface Described {
  [uniqueSymbol]: { readonly spec: Operation };
}

const describedCalls = new WeakMap<object, CallDescription>();

/** The description a registered handler carries, if it is a `describeCall` middleware (the coverage test reads it). */
export function descriptionOf(handler: unknown): CallDescription | undefined {
  return typeof handler === 'function' ? describedCalls.get(handler) : undefined;
}

function lazySpec(build: () => Operation): { readonly spec: Operation } {
  let spec: Operation | undefined;
  return {
    get spec() {
      return (spec ??= build());
    },
  };
}

/** The middleware that describes one call (see the header). */
export function describeCall(call: CallDescription): MiddlewareHandler {
  const middleware: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  describedCalls.set(middleware, call);
  return Object.assign(middleware, { [uniqueSymbol]: lazySpec(() => operationOf(call)) } satisfies Described);
}

/** Marks a guard middleware with the codes it answers, so every route behind it lists them. */
export function answersCodes<M extends MiddlewareHandler>(guard: M, codes: CodeReasons): M {
  return Object.assign(guard, {
    [uniqueSymbol]: lazySpec(() => ({ [codesExtension]: codes })),
  } satisfies Described);
}

// ---------------------------------------------------------------------------------------------
// zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1)

/** The file field of uploads: a `z.custom` check zod cannot express, described as binary. */
const uploadCheck = (uploadedFileSchema._zod.def as { fn?: unknown }).fn;

/** JSON Schema of a zod schema: what a caller sends (`input`) or what the server answers (`output`). */
export function jsonSchemaOf(schema: Schema, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; fn?: unknown };
      if (def.type === 'custom' && def.fn === uploadCheck)
        Object.assign(jsonSchema, { type: 'string', format: 'binary' });
      // Dates travel as ISO text in JSON.
      if (def.type === 'date') Object.assign(jsonSchema, { type: 'string', format: 'date-time' });
    },
  }) as JsonSchema;
  delete converted['$schema'];
  return converted;
}

/** Whether a schema (an object's fields, at any depth) takes a file: such a body is multipart. */
function takesFile(json: unknown): boolean {
  if (json === null || typeof json !== 'object') return false;
  if ((json as JsonSchema).format === 'binary') return true;
  return Object.values(json).some(takesFile);
}

/** The query string's fields as parameters (`a=1&b=2`; a list repeats its name). */
function queryParameters(schema: Schema): Parameter[] {
  const json = jsonSchemaOf(schema, 'input');
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    style: 'form',
    explode: true,
    schema: property,
  }));
}

function requestBody(schema: Schema): NonNullable<Operation['requestBody']> {
  const json = jsonSchemaOf(schema, 'input');
  const content: Record<string, { schema: JsonSchema }> = takesFile(json)
    ? { 'multipart/form-data': { schema: json } }
    : {
        'application/x-www-form-urlencoded': { schema: json },
        'application/json': { schema: json },
      };
  return { required: true, content };
}

const validationReason = 'validation: the first problem as the message, every field in data.errors';

/** The operation as hono-openapi merges it (the envelope answer is built when the document is finished). */
function operationOf(call: CallDescription): Operation {
  const codes: Record<number, string> = {};
  if (call.query || call.body) codes[ApiCode.BAD_REQUEST] = validationReason;
  Object.assign(codes, call.codes);
  const answer: JsonSchema = call.answer ? jsonSchemaOf(call.answer, 'output') : { type: 'object' };
  return {
    summary: call.summary,
    ...(call.description ? { description: call.description } : {}),
    ...(call.query ? { parameters: queryParameters(call.query) } : {}),
    ...(call.body ? { requestBody: requestBody(call.body) } : {}),
    ...(call.internal ? { hide: true } : {}),
    [codesExtension]: codes,
    'x-answer': call.download ? { download: call.download } : { data: answer },
  };
}
