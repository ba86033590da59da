/** /api/front/help/document/client/*: the help catalogue and one document (spec §7). */
import { Hono } from 'hono';
import { helpCatalogue, helpSectionOf } from '../../content/query.ts';
import { helpDocumentQuery } from '../../lib/schemas/content.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireHelpDocument } from '../services/contentLookup.ts';
import { contentStore } from '../services/contentStore.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createHelpRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  /** Sections (`key`, `title`) with their documents (`documentId`, `title`); the first is shown on entry. */
  routes.get('/getHelpCenter', describeCall({ summary: 'The help catalogue: sections with their documents' }), (c) =>
    ok(c, helpCatalogue(contentStore.localized(localeOf(c)))),
  );

  routes.get(
    '/getDocumentInfo',
    describeCall({ summary: 'One help document', query: helpDocumentQuery }),
    async (c) => {
      const { documentId } = await validate(c, helpDocumentQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      const doc = requireHelpDocument(content, documentId);
      return ok(c, { ...doc, key: helpSectionOf(content, documentId)?.key ?? '' });
    },
  );

  return routes;
}
