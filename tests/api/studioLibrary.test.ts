/**
 * The studio's choices and media library (/api/studio/choices, images, image/delete) on a real
 * database with an injected build command: what each reference field may name, read from the
 * content the editor would publish (drafts applied); every uploaded image with where it is used
 * (published, in a draft, in an earlier publication kept for rollback); and its deletion —
 * refused while used, naming the items in the caller's locale, else the row and both of its
 * files gone from the object store, audited.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import type { Choice } from '../../src/content/references.ts';
import { auditLog, contentImages } from '../../src/server/db/schema/index.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import { createLocalStore } from '../../src/server/storage/localStore.ts';
import type { ObjectStore } from '../../src/server/storage/objectStore.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}
interface Item {
  path: string;
  revision: number;
  published: unknown;
  draft: unknown;
}
interface ImageUse {
  path: string;
  kind: string;
  title: string;
  in: string[];
}
interface LibraryImage {
  name: string;
  url: string;
  fileName: string;
  width: number;
  height: number;
  bytes: number;
  uploadedBy: string | null;
  converted: boolean;
  usedBy: ImageUse[];
}

let root: string;
let t: TestApp;
let objects: ObjectStore;
let editor: string;

async function call<T = Record<string, unknown>>(
  url: string,
  options: { body?: unknown; cookie?: string; locale?: string; csrf?: boolean } = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = {
    cookie: options.cookie ?? editor,
    'Accept-Language': options.locale ?? 'zh-CN',
  };
  const post = { 'Content-Type': 'application/json', ...headers };
  const response =
    options.body === undefined
      ? await t.app.request(url, { headers })
      : await t.app.request(url, {
          method: 'POST',
          headers: options.csrf === false ? post : apiHeaders(post),
          body: JSON.stringify(options.body),
        });
  return (await response.json()) as Envelope<T>;
}

async function upload(name: string, bytes: Uint8Array): Promise<Envelope<{ name: string; url: string }>> {
  const form = new FormData();
  form.set('file', new File([Buffer.from(bytes)], name, { type: 'image/png' }));
  const response = await t.app.request('/api/studio/image', {
    method: 'POST',
    headers: apiHeaders({ cookie: editor }),
    body: form,
  });
  return (await response.json()) as Envelope<{ name: string; url: string }>;
}

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 600, height: 200, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

async function save(itemPath: string, change: (data: Record<string, unknown>) => void): Promise<Envelope<Item>> {
  const item = await call<Item>(`/api/studio/item?path=${encodeURIComponent(itemPath)}`);
  const data = structuredClone(item.data.draft ?? item.data.published) as Record<string, unknown>;
  change(data);
  return call<Item>('/api/studio/item', { body: { path: itemPath, data, revision: item.data.revision } });
}

async function publishAll(): Promise<void> {
  const started = await call<{ buildId: number }>('/api/studio/publish', { body: {} });
  expect(started.code).toBe(200);
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { data } = await call<{ status: string; error: string | null }>(
      `/api/studio/build?buildId=${started.data.buildId}`,
    );
    if (data.status === 'succeeded') return;
    if (data.status === 'failed') throw new Error(`the build failed: ${data.error ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the build did not finish');
}

const images = async () => (await call<{ images: LibraryImage[] }>('/api/studio/images')).data.images;
const values = (choices: readonly Choice[]) => choices.map((choice) => choice.value);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-studio-library-'));
  objects = createLocalStore(path.join(root, 'objects'));
  const build = async ({ contentDir, outDir }: BuildRequest) => {
    loadContent(contentDir);
    mkdirSync(path.join(outDir, 'welcome/home'), { recursive: true });
    writeFileSync(path.join(outDir, 'welcome/home/index.html'), '<!doctype html><title>home</title>');
  };
  t = await createTestApp({
    env: { DATA_DIR: path.join(root, 'data') },
    deps: { objects, siteBuild: { command: build } },
  });
  editor = await t.login('demo_editor');
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

describe('choices', () => {
  it('are for editors and operators only: 901 signed out, 403 for others', async () => {
    expect((await call('/api/studio/choices', { cookie: '' })).code).toBe(901);
    expect((await call('/api/studio/choices', { cookie: await t.login('demo_person') })).code).toBe(403);
    expect((await call('/api/studio/choices', { cookie: await t.login('demo_operator') })).code).toBe(200);
    const english = await call('/api/studio/choices', { locale: 'en-US' });
    expect(english.code).toBe(200);
    expect(english.message).toMatch(/^[A-Z]/);
  });

  it('list what each source holds, in the site’s order, with names and where each applies', async () => {
    const { choices } = (await call<{ choices: Record<string, Choice[]> }>('/api/studio/choices')).data;
    expect(choices['newsType']).toEqual([
      { value: 'policy', name: '政策法规' },
      { value: 'market', name: '市场动态' },
      { value: 'company', name: '平台动态' },
    ]);
    expect(values(choices['voltageLevel'] ?? [])).toEqual(['kv0_4', 'kv10', 'kv35', 'kv110', 'kv220']);
    expect(values(choices['product'] ?? [])).toEqual(['id1', 'id2', 'id3', 'id4', 'id5']);
    expect(values(choices['industry'] ?? []).slice(0, 3)).toEqual(['A', 'B', 'C']);
    expect(choices['region']?.[0]).toEqual({ value: '440000', name: expect.stringContaining('广东') as string });
    expect(choices['orgCom']).toContainEqual(
      expect.objectContaining({ value: 'yuehui-dianneng', name: '粤汇电能售电有限公司', areaCodes: ['440000'] }),
    );
    expect(choices['set']).toContainEqual(
      expect.objectContaining({
        value: 'gx-fixed-2027',
        areaCodes: ['450000'],
        productId: expect.stringMatching(/^id\d$/) as string,
      }),
    );
    expect(values(choices['helpDocument'] ?? [])).toContain('certify-by-usbkey');
    expect(values(choices['notice'] ?? [])).toContain('notice-hotline-hours');
    expect(values(choices['bizType'] ?? []).length).toBeGreaterThan(1);
  });

  it('follow the drafts: a new dictionary entry is offered before it is published, a notice marked for deletion is not', async () => {
    expect(
      (
        await save('dictionaries.yaml', (data) =>
          (data['newsType'] as unknown[]).push({ code: 'notice', name: '通知公告', sort: 4 }),
        )
      ).code,
    ).toBe(200);
    const notice = await call<Item>('/api/studio/item?path=notices/notice-hotline-hours.md');
    expect(
      (await call('/api/studio/item/delete', { body: { path: notice.data.path, revision: notice.data.revision } }))
        .code,
    ).toBe(200);

    const { choices } = (await call<{ choices: Record<string, Choice[]> }>('/api/studio/choices')).data;
    expect(choices['newsType']?.at(-1)).toEqual({ value: 'notice', name: '通知公告' });
    expect(values(choices['notice'] ?? [])).not.toContain('notice-hotline-hours');

    await call('/api/studio/item/discard', { body: { path: 'dictionaries.yaml' } });
    await call('/api/studio/item/discard', { body: { path: notice.data.path } });
    const after = (await call<{ choices: Record<string, Choice[]> }>('/api/studio/choices')).data.choices;
    expect(values(after['newsType'] ?? [])).toEqual(['policy', 'market', 'company']);
    expect(values(after['notice'] ?? [])).toContain('notice-hotline-hours');
  });
});

describe('media library', () => {
  const region = 'regions/450000.yaml';
  let used: { name: string; url: string };
  let unused: { name: string; url: string };

  it('lists every upload with its size, who uploaded it, its web version and where it is used (published, draft)', async () => {
    expect(await images()).toEqual([]);
    used = (await upload('banner-blue.png', await png(20, 120, 200))).data;
    unused = (await upload('spare-green.png', await png(20, 160, 60))).data;
    expect((await save(region, (data) => ((data['banners'] as { image: string }[])[0]!.image = used.url))).code).toBe(
      200,
    );

    const listed = await images();
    expect(listed.map((image) => image.fileName).sort()).toEqual(['banner-blue.png', 'spare-green.png']);
    const blue = listed.find((image) => image.name === used.name);
    expect(blue).toMatchObject({ width: 600, height: 200, uploadedBy: '陈静', converted: true, url: used.url });
    expect(blue?.bytes).toBeGreaterThan(0);
    expect(blue?.usedBy).toEqual([
      { path: region, kind: 'region', title: expect.any(String) as string, in: ['draft'] },
    ]);
    expect(listed.find((image) => image.name === unused.name)?.usedBy).toEqual([]);
    // The editors' and operators' call only.
    expect((await call('/api/studio/images', { cookie: await t.login('demo_partner') })).code).toBe(403);
  });

  it('refuses to delete an image while an item uses it, naming the item in the caller’s locale; nothing is removed', async () => {
    const zh = await call<{ usedBy: ImageUse[] }>('/api/studio/image/delete', { body: { name: used.name } });
    expect(zh.code).toBe(409);
    expect(zh.message).toContain('仍在使用');
    expect(zh.message).toContain(region);
    expect(zh.data.usedBy.map((use) => use.path)).toEqual([region]);
    const en = await call('/api/studio/image/delete', { body: { name: used.name }, locale: 'en-US' });
    expect(en.code).toBe(409);
    expect(en.message).toMatch(/^This image is still in use/);
    expect(en.message).toContain(region);
    expect(await t.db.select().from(contentImages).where(eq(contentImages.name, used.name))).toHaveLength(1);
    expect((await t.app.request(used.url)).status).toBe(200);
  });

  it('published, then replaced and published again: the earlier publication kept for rollback still uses it, so it stays', async () => {
    await publishAll();
    expect((await images()).find((image) => image.name === used.name)?.usedBy[0]?.in).toEqual(['published']);
    await save(
      region,
      (data) => ((data['banners'] as { image: string }[])[0]!.image = '/images/banners/annual-signing.svg'),
    );
    expect((await images()).find((image) => image.name === used.name)?.usedBy[0]?.in).toEqual(['published']);
    await publishAll();
    expect((await images()).find((image) => image.name === used.name)?.usedBy).toEqual([
      expect.objectContaining({ path: region, in: ['kept'] }),
    ]);
    const refused = await call('/api/studio/image/delete', { body: { name: used.name } });
    expect(refused.code).toBe(409);
    expect(refused.message).toContain(region);
  });

  it('deletes an unused image: its row, its original and its web file go; audited', async () => {
    const [, hash] = /^([0-9a-f]{32})/.exec(unused.name) ?? [];
    const keys = async () => (await objects.list('content-images/')).filter((key) => key.includes(hash ?? '-'));
    expect((await keys()).sort()).toEqual([
      `content-images/originals/${unused.name}`,
      `content-images/web/${hash}.webp`,
    ]);

    const deleted = await call('/api/studio/image/delete', { body: { name: unused.name } });
    expect(deleted.code).toBe(200);
    expect(deleted.message).toContain('spare-green.png');
    expect(await keys()).toEqual([]);
    expect(await t.db.select().from(contentImages).where(eq(contentImages.name, unused.name))).toEqual([]);
    expect((await t.app.request(unused.url)).status).toBe(404);
    expect((await images()).map((image) => image.name)).toEqual([used.name]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'content.imageDelete'));
    expect(audit).toMatchObject({
      target: unused.name,
      detail: expect.objectContaining({ fileName: 'spare-green.png' }) as unknown,
    });
  });

  it('checks the name and the request: 400 for a malformed name, 404 for an unknown one, 403 without the CSRF headers', async () => {
    const malformed = await call<{ errors: { field: string }[] }>('/api/studio/image/delete', {
      body: { name: '../content-images/x.png' },
    });
    expect(malformed.code).toBe(400);
    expect(malformed.data.errors[0]?.field).toBe('name');
    expect((await call('/api/studio/image/delete', { body: { name: `${'0'.repeat(32)}.png` } })).code).toBe(404);
    expect((await call('/api/studio/image/delete', { body: { name: used.name }, csrf: false })).code).toBe(403);
  });
});
