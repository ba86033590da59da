/**
 * The API description (docs/api-description.md) covers the app: every endpoint Hono registered
 * under /api (enumerated from `app.routes`, as the fuzz test does) is described next to its
 * registration and appears in /api/openapi.json (unless described as internal, then it must not),
 * and a handler that validates its query or body with a schema is described with that very schema
 * object. The document and the reference page are public, cacheable and script-free.
 */
import { describe, expect, it } from 'vitest';
import { descriptionOf, type CallDescription } from '../../src/server/openapi/describe.ts';
import type { ApiDocument } from '../../src/server/openapi/document.ts';
import { enumerateRoutes, loadSchemaCatalogue } from './fuzzKit.ts';
import { createTestApp, openPerFile } from './harness.ts';

// A rebuild token makes the operators' rebuild calls exist, so their (internal) descriptions are checked too.
const t = openPerFile(() => createTestApp({ env: { REBUILD_TOKEN: 'r'.repeat(32) } }));

/** `/a/:id` → `/a/{id}` (the document's form). */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');
}

/** A catch-all (`/api/*`: the unknown-path answer) is no operation. */
const isCatchAll = (path: string) => path.endsWith('*');

async function fetchDocument(): Promise<ApiDocument> {
  const res = await t.app.request('/api/openapi.json');
  expect(res.status).toBe(200);
  return (await res.json()) as ApiDocument;
}

describe('API description', () => {
  it('describes every /api endpoint, with the schemas its handler validates', async () => {
    const document = await fetchDocument();
    const catalogue = await loadSchemaCatalogue();
    const { routes } = enumerateRoutes(t.app);
    const apiRoutes = routes.filter((route) => route.path.startsWith('/api/') && !isCatchAll(route.path));
    expect(apiRoutes.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const route of apiRoutes) {
      const entries = t.app.routes.filter(
        (entry) => entry.path === route.path && entry.method.toUpperCase() === route.registeredAs,
      );
      const described = entries.map((entry) => descriptionOf(entry.handler)).find(Boolean);
      const name = `${route.method} ${route.path}`;
      if (!described) {
        problems.push(`${name}: no describeCall at its registration`);
        continue;
      }
      const operation = document.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
      if (described.internal) {
        if (operation) problems.push(`${name}: internal, yet in the published document`);
        continue;
      }
      if (!operation) {
        problems.push(`${name}: missing from /api/openapi.json`);
        continue;
      }
      if (!operation.summary) problems.push(`${name}: no summary`);
      // The handler's own `validate(c, schema, source)` calls: the description must carry that schema.
      for (const entry of entries) {
        if (entry.handler.length >= 2) continue;
        const text = String(entry.handler);
        // Vitest's transform prints `(0, __vite_ssr_import_1__.loginBody)` and `"body"`: the schema is the last name.
        const calls = /\bvalidate\)?\(\s*c\s*,\s*(?:\(0,\s*)?([\w$.]+?)\)?\s*,\s*['"](query|body)['"]/g;
        for (const match of text.matchAll(calls)) {
          const [, argument = '', source = ''] = match;
          const schemaName = argument.split('.').pop() ?? argument;
          const given = described[source as keyof Pick<CallDescription, 'query' | 'body'>];
          const expected = catalogue.schemas.get(schemaName)?.schema;
          if (!given) problems.push(`${name}: validates ${schemaName} (${source}) but describes no ${source}`);
          else if (expected && given !== (expected as unknown)) {
            problems.push(`${name}: validates ${schemaName} but describes another ${source} schema`);
          }
        }
        if (/\bvalidate\)?\(/.test(text) && !described.query && !described.body) {
          problems.push(`${name}: validates its input but describes none`);
        }
      }
      if (described.query && !operation.parameters?.length) problems.push(`${name}: query without parameters`);
      if (described.body && !operation.requestBody) problems.push(`${name}: body without requestBody`);
    }
    expect(problems).toEqual([]);
  });

  it('answers the envelope with its codes: 901 behind a session guard, 400 when it validates', async () => {
    const document = await fetchDocument();
    const currentUser = document.paths?.['/api/front/user/currentUser']?.get as { 'x-codes': number[] };
    expect(currentUser['x-codes']).toContain(901);
    const login = document.paths?.['/api/front/system/login']?.post;
    expect((login as { 'x-codes': number[] })['x-codes']).toContain(400);
    expect(Object.keys(login?.requestBody && 'content' in login.requestBody ? login.requestBody.content : {})).toEqual([
      'application/x-www-form-urlencoded',
      'application/json',
    ]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('serves the document and the reference page publicly, cacheable, with no script', async () => {
    const json = await t.app.request('/api/openapi.json');
    expect(json.headers.get('cache-control')).toBe('public, max-age=300');
    const page = await t.app.request('/api/reference');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('/api/front/system/login');
  });
});
