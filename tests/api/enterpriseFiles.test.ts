/**
 * /api/front/hgdarc/enterpriseauthfile/*: certification files — content-checked types, size
 * limits, forged types, hostile names, storage outside the web root, ownership, state rules —
 * on both object stores: the local directory (DATA_DIR/uploads) and an S3 bucket on a real
 * S3-compatible server started here (tests/api/s3Server.ts). What is stored is looked at through a
 * second store on the same configuration, as another API process would see it.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthFileData, EnterpriseData } from '../../src/lib/schemas/enterprise.ts';
import { enterpriseAuthFiles, enterprises } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { imageDownloadPolicy } from '../../src/server/routes/enterpriseAuthFile.ts';
import { objectStoreFromConfig } from '../../src/server/storage/fromConfig.ts';
import type { ObjectStore } from '../../src/server/storage/objectStore.ts';
import { uploadKey } from '../../src/server/uploads/storage.ts';
import { apiHeaders, openPerFile } from './harness.ts';
import {
  addEnterprise,
  auditActions,
  base,
  createEnterpriseTestApp,
  fileBase,
  getJson,
  jpegBytes,
  newUser,
  pdfBytes,
  pngBytes,
  postJson,
  upload,
  type EnterpriseTestApp,
} from './enterpriseCalls.ts';
import { startS3Server } from './s3Server.ts';

/** The app on the S3 engine: its own s3rver and bucket, stopped with the app. */
async function createS3EnterpriseTestApp(): Promise<EnterpriseTestApp> {
  const s3 = await startS3Server();
  try {
    const app = await createEnterpriseTestApp({ env: s3.env });
    return {
      ...app,
      close: async () => {
        await app.close();
        await s3.stop();
      },
    };
  } catch (error) {
    await s3.stop();
    throw error;
  }
}

const engines = [
  { engine: 'local', open: () => createEnterpriseTestApp() },
  { engine: 's3', open: createS3EnterpriseTestApp },
] as const;

describe.each(engines)('on the $engine store', ({ engine, open }) => {
  const t = openPerFile(open);

  let observer: ObjectStore | undefined;
  /** Another store on the app's configuration: what any API process would find. */
  const objects = (): ObjectStore => (observer ??= objectStoreFromConfig(t.config));

  /** The stored names under `uploads/`. */
  async function storedFiles(): Promise<string[]> {
    return (await objects().list('uploads/')).map((key) => key.slice('uploads/'.length));
  }

  async function storedBytes(storedName: string): Promise<Uint8Array | null> {
    const object = await objects().get(uploadKey(storedName));
    return object ? new Uint8Array(await new Response(object.body).arrayBuffer()) : null;
  }

  async function ownerWithEnterprise(): Promise<{ id: number; cookie: string; enterprise: EnterpriseData }> {
    const user = await newUser(t);
    return { ...user, enterprise: await addEnterprise(t, user.cookie) };
  }

  async function fileRow(id: number) {
    const [row] = await t.db.select().from(enterpriseAuthFiles).where(eq(enterpriseAuthFiles.id, id));
    return row;
  }

  async function download(id: number | string, cookie?: string): Promise<Response> {
    return t.app.request(`${fileBase}/download?id=${id}`, { headers: cookie ? { Cookie: cookie } : {} });
  }

  describe('upload', () => {
    it('stores a PDF, a PNG and a JPEG by their content under uploads/, owner-only, with an audit row', async () => {
      const owner = await ownerWithEnterprise();
      const bytes = pdfBytes();
      const { answer } = await upload(t, owner.cookie, { kind: 'businessLicence', bytes, name: '营业执照.pdf' });
      expect(answer.code).toBe(200);
      const file = answer.data as unknown as AuthFileData;
      expect(file).toEqual({
        id: expect.any(Number),
        kind: 'businessLicence',
        originalName: '营业执照.pdf',
        contentType: 'application/pdf',
        size: bytes.length,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        url: `${fileBase}/download?id=${file.id}`,
      });
      const row = await fileRow(file.id);
      expect(row?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(row?.storedName).toMatch(/^[0-9a-f]{32}$/);
      expect(await storedBytes(row!.storedName)).toEqual(bytes);
      if (engine === 'local') {
        const info = await stat(path.join(t.dataDir, 'uploads', row!.storedName));
        expect(info.size).toBe(bytes.length);
        expect(info.mode & 0o077).toBe(0);
      }
      expect(await auditActions(t, `enterprise:${owner.enterprise.id}`)).toContain('enterprise.fileUpload');

      const png = await upload(t, owner.cookie, {
        kind: 'authLetter',
        bytes: pngBytes(),
        name: 'letter.png',
        type: 'image/png',
      });
      expect(png.answer.data).toMatchObject({ contentType: 'image/png', kind: 'authLetter' });
      const jpeg = await upload(t, owner.cookie, {
        kind: 'authLetter',
        bytes: jpegBytes(),
        name: 'letter.jpg',
        type: 'image/jpeg',
      });
      expect(jpeg.answer.data).toMatchObject({ contentType: 'image/jpeg', kind: 'authLetter' });
    });

    it('replaces a file of the same kind: one row per kind, the old bytes removed', async () => {
      const owner = await ownerWithEnterprise();
      const first = (await upload(t, owner.cookie, { kind: 'authLetter', bytes: pdfBytes() })).answer
        .data as unknown as AuthFileData;
      const firstStored = (await fileRow(first.id))!.storedName;
      const second = (
        await upload(t, owner.cookie, { kind: 'authLetter', bytes: pngBytes(), type: 'image/png', name: 'b.png' })
      ).answer.data as unknown as AuthFileData;
      expect(second.id).not.toBe(first.id);
      expect(await fileRow(first.id)).toBeUndefined();
      expect(await storedFiles()).not.toContain(firstStored);
      const rows = await t.db
        .select()
        .from(enterpriseAuthFiles)
        .where(eq(enterpriseAuthFiles.enterpriseId, owner.enterprise.id));
      expect(rows.map((r) => r.kind)).toEqual(['authLetter']);
    });

    it('judges by content, not by the declared type or the extension', async () => {
      const owner = await ownerWithEnterprise();
      const before = await storedFiles();
      const forged: [Uint8Array, string, string][] = [
        [new TextEncoder().encode('just text, not a PDF'), 'licence.pdf', 'application/pdf'],
        [new TextEncoder().encode('<html><script>alert(1)</script></html>'), 'image.png', 'image/png'],
        [
          new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
          'a.jpg',
          'image/jpeg',
        ],
        [new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]), 'setup.pdf', 'application/pdf'],
        [new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'short.png', 'image/png'],
        [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14]), 'zip.pdf', 'application/pdf'],
      ];
      for (const [bytes, name, type] of forged) {
        const { answer } = await upload(t, owner.cookie, { kind: 'businessLicence', bytes, name, type });
        expect(answer, name).toMatchObject({ code: 400, message: '只能上传 PDF、JPG 或 PNG 文件（按文件内容判断）' });
      }
      expect(await storedFiles()).toEqual(before);
      // A real PDF declared as text with another extension is still a PDF.
      const { answer } = await upload(t, owner.cookie, {
        kind: 'businessLicence',
        bytes: pdfBytes(),
        name: 'notes.txt',
        type: 'text/plain',
      });
      expect(answer.data).toMatchObject({ contentType: 'application/pdf', originalName: 'notes.txt' });
    });

    it('refuses an empty file and one over 10 MB (400); a body over the upload limit gets HTTP 413', async () => {
      const owner = await ownerWithEnterprise();
      const before = await storedFiles();
      expect((await upload(t, owner.cookie, { kind: 'authLetter', bytes: new Uint8Array(0) })).answer).toMatchObject({
        code: 400,
        message: '文件是空的，请重新选择',
      });
      const big = new Uint8Array(10 * 1024 * 1024 + 1);
      big.set(pdfBytes().subarray(0, 8));
      expect((await upload(t, owner.cookie, { kind: 'authLetter', bytes: big })).answer).toMatchObject({
        code: 400,
        message: '文件不能超过 10 MB',
      });
      const exact = new Uint8Array(10 * 1024 * 1024);
      exact.set(pdfBytes().subarray(0, 8));
      expect((await upload(t, owner.cookie, { kind: 'authLetter', bytes: exact })).answer.code).toBe(200);
      const huge = new Uint8Array(12 * 1024 * 1024);
      const { response, answer } = await upload(t, owner.cookie, { kind: 'authLetter', bytes: huge });
      expect(response.status).toBe(413);
      expect(answer).toEqual({ code: 413, message: '上传内容超过 10 MB，请压缩后重试', data: {} });
      expect((await storedFiles()).length).toBe(before.length + 1);
    });

    it("the larger limit is the upload path's only: a 2 MB multipart body elsewhere is 413", async () => {
      const owner = await ownerWithEnterprise();
      const form = new FormData();
      form.set('id', String(owner.enterprise.id));
      form.set('padding', new File([new Uint8Array(2 * 1024 * 1024)], 'pad.bin'));
      const response = await t.app.request(`${base}/editAuthInfo`, {
        method: 'POST',
        headers: apiHeaders({ Cookie: owner.cookie }),
        body: form,
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { message: string }).message).toBe('请求内容过大');
    });

    it('keeps only the last segment of a hostile name and never uses it for a path', async () => {
      const owner = await ownerWithEnterprise();
      const names: [string, string][] = [
        ['../../../../etc/passwd.pdf', 'passwd.pdf'],
        ['..\\..\\windows\\system32\\a.pdf', 'a.pdf'],
        ['/absolute/path/b.pdf', 'b.pdf'],
        ['..', 'file'],
        ['evil\u202Efdp.exe', 'evilfdp.exe'],
        ['tab\tand\nnewline.pdf', 'tabandnewline.pdf'],
        [`${'长'.repeat(300)}.pdf`, '长'.repeat(255)],
      ];
      for (const [name, kept] of names) {
        const { answer } = await upload(t, owner.cookie, { kind: 'businessLicence', bytes: pdfBytes(), name });
        expect(answer.code, name).toBe(200);
        expect((answer.data as unknown as AuthFileData).originalName).toBe(kept);
      }
      // Nothing was written outside uploads/ (on S3, nothing at all on the local disk).
      expect(await readdir(t.dataDir)).toEqual(engine === 'local' ? ['uploads'] : []);
      expect((await objects().list('')).every((key) => key.startsWith('uploads/'))).toBe(true);
      expect((await storedFiles()).every((name) => /^[0-9a-f]{32}$/.test(name))).toBe(true);
    });

    it('refuses a bad kind, a missing file or a text field where the file belongs (400)', async () => {
      const owner = await ownerWithEnterprise();
      expect((await upload(t, owner.cookie, { kind: 'idCard', bytes: pdfBytes() })).answer.code).toBe(400);
      expect((await upload(t, owner.cookie, { bytes: pdfBytes() })).answer.code).toBe(400);
      expect((await upload(t, owner.cookie, { kind: 'authLetter' })).answer.code).toBe(400);
      const asText = await postJson(
        t,
        `${fileBase}/upload`,
        { kind: 'authLetter', file: 'JVBERi0xLjQK' },
        owner.cookie,
      );
      expect(asText.code).toBe(400);
    });

    it('only while not certified or returned; a user without an enterprise gets 404; no session 901; no CSRF header 403', async () => {
      const owner = await ownerWithEnterprise();
      const before = await storedFiles();
      for (const status of [1, 2]) {
        await t.db.update(enterprises).set({ authStatus: status }).where(eq(enterprises.id, owner.enterprise.id));
        const { answer } = await upload(t, owner.cookie, { kind: 'authLetter', bytes: pdfBytes() });
        expect(answer.code).toBe(409);
        expect(answer.message).toMatch(status === 1 ? /审核中/ : /已认证/);
      }
      await t.db.update(enterprises).set({ authStatus: 3 }).where(eq(enterprises.id, owner.enterprise.id));
      expect((await upload(t, owner.cookie, { kind: 'authLetter', bytes: pdfBytes() })).answer.code).toBe(200);
      expect((await storedFiles()).length).toBe(before.length + 1);

      const loner = await newUser(t);
      expect((await upload(t, loner.cookie, { kind: 'authLetter', bytes: pdfBytes() })).answer).toMatchObject({
        code: 404,
      });
      expect((await upload(t, undefined, { kind: 'authLetter', bytes: pdfBytes() })).answer.code).toBe(901);
      const form = new FormData();
      form.set('kind', 'authLetter');
      form.set('file', new File([pdfBytes().slice()], 'a.pdf'));
      const response = await t.app.request(`${fileBase}/upload`, {
        method: 'POST',
        headers: { Cookie: owner.cookie },
        body: form,
      });
      expect(((await response.json()) as { code: number }).code).toBe(403);
      expect((await storedFiles()).length).toBe(before.length + 1);
    });
  });

  describe('download', () => {
    it('answers the bytes inline to the owner and operators with headers that run nothing', async () => {
      const owner = await ownerWithEnterprise();
      const bytes = pngBytes();
      const file = (
        await upload(t, owner.cookie, { kind: 'businessLicence', bytes, name: '执照 "扫描".png', type: 'image/png' })
      ).answer.data as unknown as AuthFileData;
      const response = await download(file.id, owner.cookie);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe(imageDownloadPolicy);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      const disposition = response.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(/^inline; filename="[^"]*"; filename\*=UTF-8''/);
      expect(decodeURIComponent(disposition.split("UTF-8''")[1] ?? '')).toBe('执照 "扫描".png');

      const operator = await newUser(t, ['operator']);
      expect((await download(file.id, operator.cookie)).status).toBe(200);
      // A PDF keeps the API's policy (no plugins, nothing loaded), not the sandbox Chromium's viewer refuses.
      const pdf = (await upload(t, owner.cookie, { kind: 'authLetter', bytes: pdfBytes() })).answer
        .data as unknown as AuthFileData;
      const pdfResponse = await download(pdf.id, operator.cookie);
      expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
      expect(pdfResponse.headers.get('x-content-type-options')).toBe('nosniff');
      expect(pdfResponse.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    });

    it('another user, an unknown id, a bad id and no session are refused; bytes gone from the store → 404', async () => {
      const owner = await ownerWithEnterprise();
      const other = await ownerWithEnterprise();
      const file = (await upload(t, owner.cookie, { kind: 'businessLicence', bytes: pdfBytes() })).answer
        .data as unknown as AuthFileData;
      expect(await (await download(file.id, other.cookie)).json()).toEqual({
        code: 404,
        message: '记录不存在',
        data: {},
      });
      expect(((await (await download(999999, owner.cookie)).json()) as { code: number }).code).toBe(404);
      for (const id of ['abc', '-1', '../1', '1;drop']) {
        expect(
          ((await (await download(encodeURIComponent(id), owner.cookie)).json()) as { code: number }).code,
          id,
        ).toBe(400);
      }
      expect(((await (await download(file.id)).json()) as { code: number }).code).toBe(901);
      await objects().remove([uploadKey((await fileRow(file.id))!.storedName)]);
      expect(await (await download(file.id, owner.cookie)).json()).toMatchObject({
        code: 404,
        message: '文件已不存在，请重新上传',
      });
    });

    it('the seeded files of the demo enterprises under review are listed for the operator', async () => {
      const operator = await t.login('demo_operator');
      const [row] = await t.db
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(eq(enterprises.enterpriseName, '佛山华瑞新材料有限公司'));
      const answer = await getJson<EnterpriseData>(t, `${base}/get?id=${row!.id}`, operator);
      expect(answer.data).toMatchObject({ authStatus: 1, authType: 'certificate' });
      expect(answer.data.files.map((f) => [f.kind, f.contentType])).toEqual([
        ['authLetter', 'application/pdf'],
        ['businessLicence', 'image/png'],
      ]);
    });
  });

  describe('deleteElectricity', () => {
    it("deletes one of the owner's files (row and bytes) while not certified or returned", async () => {
      const owner = await ownerWithEnterprise();
      const file = (await upload(t, owner.cookie, { kind: 'authLetter', bytes: pdfBytes() })).answer
        .data as unknown as AuthFileData;
      const stored = (await fileRow(file.id))!.storedName;
      const other = await ownerWithEnterprise();
      expect((await postJson(t, `${fileBase}/deleteElectricity`, { id: file.id }, other.cookie)).code).toBe(404);
      await t.db.update(enterprises).set({ authStatus: 1 }).where(eq(enterprises.id, owner.enterprise.id));
      expect((await postJson(t, `${fileBase}/deleteElectricity`, { id: file.id }, owner.cookie)).code).toBe(409);
      expect(await fileRow(file.id)).toBeDefined();
      await t.db.update(enterprises).set({ authStatus: 0 }).where(eq(enterprises.id, owner.enterprise.id));
      expect(await postJson(t, `${fileBase}/deleteElectricity`, { id: file.id }, owner.cookie)).toMatchObject({
        code: 200,
        data: {},
      });
      expect(await fileRow(file.id)).toBeUndefined();
      expect(await storedFiles()).not.toContain(stored);
      expect(await objects().get(uploadKey(stored))).toBeNull();
      expect((await postJson(t, `${fileBase}/deleteElectricity`, { id: file.id }, owner.cookie)).code).toBe(404);
      expect((await postJson(t, `${fileBase}/deleteElectricity`, { id: 'x' }, owner.cookie)).code).toBe(400);
      expect((await postJson(t, `${fileBase}/deleteElectricity`, { id: file.id })).code).toBe(901);
      expect(await auditActions(t, `enterprise:${owner.enterprise.id}`)).toContain('enterprise.fileDelete');
    });

    it('GET is not a way to delete', async () => {
      const response = await t.app.request(`${fileBase}/deleteElectricity?id=1`, { headers: apiHeaders() });
      expect(response.status).toBe(404);
    });
  });
});

describe('a frozen object store', () => {
  it('a download answers 503 api.busy within S3_TIMEOUT_MS, logs one line without a stack, and works once the store wakes', async () => {
    const s3 = await startS3Server();
    const lines: string[] = [];
    const t = await createEnterpriseTestApp({
      env: { ...s3.env, S3_TIMEOUT_MS: '1000' },
      logger: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }),
    });
    try {
      const owner = await newUser(t);
      await addEnterprise(t, owner.cookie);
      const file = (await upload(t, owner.cookie, { kind: 'businessLicence', bytes: pngBytes(), type: 'image/png' }))
        .answer.data as unknown as AuthFileData;
      const download = () => t.app.request(`${fileBase}/download?id=${file.id}`, { headers: { Cookie: owner.cookie } });
      lines.length = 0;
      s3.freeze();
      const started = performance.now();
      let response: Response;
      try {
        response = await download();
      } finally {
        s3.thaw();
      }
      const ms = performance.now() - started;
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 503, message: '服务器繁忙，请稍后再试' });
      // The deadline (1 s), far inside the request budget (30 s), with a margin for a busy machine.
      expect(ms).toBeLessThan(4_000);
      const logged = lines.filter((line) => !line.includes('"msg":"request"'));
      expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['object store unavailable']);
      expect(logged[0]).not.toContain('"stack"');
      expect((await download()).status).toBe(200);
    } finally {
      await t.close();
      await s3.stop();
    }
  }, 60_000);
});
