/**
 * The API's OpenAPI 3.1 description, generated from the running app (docs/api-description.md):
 * hono-openapi walks `app.routes` and merges each route's `describeCall` with the guards in front
 * of it; this module then writes what is the same for every call — the envelope answer
 * `{ code, message, data }` with the codes the call can answer, the transport faults (HTTP 413,
 * 500, 503), the session cookie and the same-origin headers of state-changing calls — and tags
 * each operation with its module (routes/index.ts).
 */
import type { Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import { ApiCode } from '../../lib/apiCodes.ts';
import { sessionCookieName } from '../../lib/apiCodes.ts';
import { needsSameOrigin } from '../middleware/csrf.ts';
import { apiModules } from '../routes/index.ts';
import type { AppEnv } from '../types.ts';
import { codesExtension, type CodeReasons, type JsonSchema, type Operation, type Parameter } from './describe.ts';

/** The OpenAPI 3.1 document, as far as this code writes and reads it. */
export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: { name: string; identifier?: string } };
  paths: Record<string, Record<string, FinishedOperation>>;
  tags?: { name: string; description?: string }[];
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

interface Response {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
}

/** An operation once finished: its answers written, its codes listed. */
export interface FinishedOperation extends Operation {
  responses: Record<string, Response | { $ref: string }>;
  /** The envelope codes other than 200, for the reference page and the tests. */
  'x-codes': number[];
}

type MergedOperation = Operation & {
  [codesExtension]?: CodeReasons;
  'x-answer'?: { data: JsonSchema } | { download: string };
};

const envelopeDescription =
  'Every answer is the envelope { code, message, data } (HTTP 200 for business outcomes, whatever their code).';

const components = {
  securitySchemes: {
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: sessionCookieName,
      description: 'The session cookie set by a login; a call without a live session answers code 901.',
    },
  },
  schemas: {
    FieldError: {
      type: 'object',
      required: ['field', 'message'],
      properties: { field: { type: 'string' }, message: { type: 'string' } },
    },
    Failure: {
      type: 'object',
      description: 'An answer other than success: `message` says why, in the caller’s language.',
      required: ['code', 'message', 'data'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        data: {
          type: 'object',
          description: 'Empty, or `errors` (one per rejected field) for a validation failure.',
          properties: { errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } } },
        },
      },
    },
  },
  responses: {
    BodyTooLarge: {
      description: 'HTTP 413: the body is over the limit (`api.bodyTooLarge`).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    },
    ServerError: {
      description: 'HTTP 500: a crash (`api.serverError`; the details go to the log only).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    },
    Busy: {
      description:
        'HTTP 503: the call ran past its time budget (`api.timeout`) or the database was too busy (`api.busy`).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    },
  },
};

const sameOriginParameters: Parameter[] = [
  {
    name: 'X-Requested-With',
    in: 'header',
    required: true,
    description: 'Same-origin proof of a state-changing call (with Origin or Referer); without it code 403 `api.csrf`.',
    schema: { type: 'string', enum: ['XMLHttpRequest'] },
  },
];

/** The module an operation belongs to: the longest base of routes/index.ts its path starts with. */
function tagOf(path: string): string {
  let best = '';
  for (const { base } of apiModules) if (path.startsWith(`${base}/`) && base.length > best.length) best = base;
  return best || path.split('/').slice(0, 3).join('/');
}

/**
 * `get` + the path in PascalCase (`/api/front/user/currentUser` → `getFrontUserCurrentUser`): set
 * here because hono-openapi gives the routes behind a shared guard the guard's id.
 */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && word !== 'api')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

function envelopeOf(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: { code: { type: 'integer', const: ApiCode.OK }, message: { type: 'string' }, data },
  };
}

function finishOperation(path: string, method: string, operation: MergedOperation): FinishedOperation {
  const reasons: Record<number, string> = { ...operation[codesExtension] };
  if (needsSameOrigin(method.toUpperCase(), path)) {
    reasons[ApiCode.FORBIDDEN] = [reasons[ApiCode.FORBIDDEN], 'not same-origin (`api.csrf`)']
      .filter(Boolean)
      .join('; ');
    operation.parameters = [...(operation.parameters ?? []), ...sameOriginParameters];
  }
  const codes = Object.keys(reasons)
    .map(Number)
    .sort((a, b) => a - b);
  const failure: JsonSchema = {
    allOf: [{ $ref: '#/components/schemas/Failure' }, { properties: { code: { enum: codes } } }],
  };
  const answer = operation['x-answer'] ?? { data: { type: 'object' } };
  const listed = codes.map((code) => `${code}: ${reasons[code]}`).join('; ');
  const description = `${envelopeDescription} Codes: 200 success${listed ? `; ${listed}` : ''}.`;
  const success: Response =
    'download' in answer
      ? {
          description: `The file (${answer.download}); a failure answers the envelope instead. ${description}`,
          content: {
            [answer.download]: { schema: { type: 'string', format: 'binary' } },
            'application/json': { schema: failure },
          },
        }
      : {
          description,
          content: {
            'application/json': {
              schema: codes.length ? { oneOf: [envelopeOf(answer.data), failure] } : envelopeOf(answer.data),
            },
          },
        };
  const { [codesExtension]: _codes, 'x-answer': _answer, ...described } = operation;
  return {
    ...described,
    operationId: operationIdOf(method, path),
    responses: {
      200: success,
      ...(operation.requestBody ? { 413: { $ref: '#/components/responses/BodyTooLarge' } } : {}),
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/Busy' },
    },
    'x-codes': codes,
    tags: [tagOf(path)],
    // A public call says so; a guarded one names the session cookie.
    security: reasons[ApiCode.SESSION_EXPIRED] ? [{ session: [] }] : [],
  };
}

/** The document for an app (the same for every caller: it depends on the code, not on the request). */
export async function apiDocument(app: Pick<Hono<AppEnv>, 'routes'>): Promise<ApiDocument> {
  // hono-openapi reads only `routes`; its signature wants an app of the default environment.
  const document = (await generateSpecs(app as unknown as Hono, {
    documentation: {
      info: {
        title: 'Electricity retail portal API',
        version: '1',
        description: [
          'The portal’s /api calls, generated from the zod schemas the server validates with.',
          'Requests: the query string for GET; a POST body is form-urlencoded by default (JSON accepted too), multipart when it carries a file.',
          envelopeDescription,
          'Code 901: no live session (the browser goes to the login page).',
          'A state-changing call needs `X-Requested-With: XMLHttpRequest` and a same-origin `Origin` (or `Referer`); otherwise code 403 `api.csrf`.',
        ].join('\n\n'),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'this server' }],
    },
    // Wildcard routes (the unknown-path answers) are no operations; hono-openapi drops them.
    excludeMethods: ['OPTIONS', 'HEAD'],
    // /api/openapi.json ends like a file name: it is an operation all the same.
    excludeStaticFile: false,
  })) as ApiDocument;
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const finished = finishOperation(path, method, operation);
      item[method] = finished;
      for (const tag of finished.tags ?? []) tags.add(tag);
    }
  }
  document.components = { ...document.components, ...components };
  document.tags = [...tags].sort().map((name) => ({ name, description: `Calls under ${name}.` }));
  return document;
}
