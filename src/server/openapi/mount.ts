/**
 * GET /api/openapi.json (the OpenAPI 3.1 document) and GET /api/reference (the same as a page).
 * Public and the same for every caller: they describe the code, not the data, so they may be
 * cached, and they are mounted before the /api middleware (no session, no CSRF, no `no-store`).
 * Both are built once per app, on the first request (the routes are all registered by then).
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { describeCall } from './describe.ts';
import { apiDocument, type ApiDocument } from './document.ts';
import { referencePage, referencePagePolicy } from './referencePage.ts';

/** How long a browser or a proxy may keep the description: it changes only with a release. */
const descriptionCacheControl = 'public, max-age=300';

export const apiDescriptionPath = '/api/openapi.json';
export const apiReferencePath = '/api/reference';

export function mountApiDescription(app: Hono<AppEnv>): void {
  let document: Promise<ApiDocument> | undefined;
  let page: Promise<string> | undefined;
  const documentOf = () => (document ??= apiDocument(app));

  app.get(
    apiDescriptionPath,
    describeCall({ summary: 'This API’s OpenAPI 3.1 description', download: 'application/json' }),
    async (c) => {
      c.header('Cache-Control', descriptionCacheControl);
      return c.json(await documentOf());
    },
  );
  app.get(
    apiReferencePath,
    describeCall({ summary: 'This API’s reference, as a page', download: 'text/html' }),
    async (c) => {
      c.header('Cache-Control', descriptionCacheControl);
      c.header('Content-Security-Policy', referencePagePolicy);
      return c.html(await (page ??= documentOf().then(referencePage)));
    },
  );
}
