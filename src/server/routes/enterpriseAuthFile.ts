/**
 * /api/front/hgdarc/enterpriseauthfile/*: the certification files (docs/enterprises.md). Upload
 * and delete act on the caller's own enterprise; download answers the bytes to their owner or an
 * operator, with headers that keep a browser from running anything in them.
 */
import { Hono } from 'hono';
import { authFileIdBody, authFileUploadBody } from '../../lib/schemas/enterprise.ts';
import { ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { deleteAuthFile, readAuthFile, uploadAuthFile } from '../services/authFiles.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { extensionOf } from '../uploads/fileType.ts';
import { validate } from '../validate.ts';
import { enterpriseActor } from './enterpriseActor.ts';

/** `inline; filename="a.pdf"; filename*=UTF-8''…`: an ASCII fallback and the real name (RFC 6266). */
export function inlineDisposition(name: string, contentType: keyof typeof extensionOf): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const fallback = /[A-Za-z0-9]/.test(ascii) ? ascii : `file${extensionOf[contentType]}`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The policy of a downloaded image: a sandboxed document that may show the image and nothing else. */
export const imageDownloadPolicy = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

export function createEnterpriseAuthFileRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config, objects } = deps;
  const routes = new Hono<AppEnv>();

  /** multipart: `kind` (businessLicence | authLetter) and `file`. */
  routes.post(
    '/upload',
    describeCall({ summary: "Upload a certification file of the caller's enterprise", body: authFileUploadBody }),
    requireSession,
    async (c) => {
      const { kind, file } = await validate(c, authFileUploadBody, 'body');
      return ok(
        c,
        await uploadAuthFile(db, enterpriseActor(c, config), objects, { kind, file }),
        'enterprise.fileUploaded',
      );
    },
  );

  routes.post(
    '/deleteElectricity',
    describeCall({ summary: "Delete a certification file of the caller's enterprise", body: authFileIdBody }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, authFileIdBody, 'body');
      await deleteAuthFile(db, enterpriseActor(c, config), objects, id);
      return ok(c, {}, 'enterprise.fileDeleted');
    },
  );

  routes.get(
    '/download',
    describeCall({
      summary: 'Download a certification file (its owner or an operator)',
      query: authFileIdBody,
      download: 'application/octet-stream',
    }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, authFileIdBody, 'query');
      const { row, object } = await readAuthFile(db, enterpriseActor(c, config), objects, id);
      const contentType = row.contentType as keyof typeof extensionOf;
      // Streamed from the store (local file or S3 object) straight into the answer.
      return c.body(object.body, 200, {
        'Content-Type': contentType,
        'Content-Length': String(object.size),
        'Content-Disposition': inlineDisposition(row.originalName, contentType),
        'X-Content-Type-Options': 'nosniff',
        // An image opened in a tab runs nothing and reaches nothing. A PDF keeps the API's policy
        // (nothing loaded, no framing): Chromium refuses to start its PDF viewer in a sandboxed
        // document, and with nosniff and a type read from the bytes the file cannot be taken for a page.
        ...(contentType === 'application/pdf' ? {} : { 'Content-Security-Policy': imageDownloadPolicy }),
        'Cache-Control': 'private, no-store',
      });
    },
  );

  return routes;
}
