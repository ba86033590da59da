/**
 * Certification files (enterpriseauthfile/upload, deleteElectricity, download; docs/enterprises.md):
 * the business licence and the letter of authorisation, one of each per enterprise. The type is
 * read from the bytes (PDF, JPEG, PNG), the size is at most 10 MB, the bytes go to the object store
 * under a generated key (`uploads/<32 hex>`: DATA_DIR/uploads locally, or the S3 bucket), and only
 * the owner and operators get them back. Files change only while the enterprise is not certified
 * or returned (0, 3): under review the operator is reading them.
 *
 * Bytes and rows are kept in step: new bytes are written before the transaction (and removed if it
 * fails), old bytes are removed only after it committed, so a crash leaves at worst an orphan file,
 * never a row without its file. The bytes stream from the parsed upload to the store (hashed on
 * the way) and from the store to the download; no copy of a whole file is made here.
 */
import { createHash, type Hash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  maxAuthFileBytes,
  type AuthFileData,
  type AuthFileKindName,
  type AuthFileContentType,
} from '../../lib/schemas/enterprise.ts';
import type { Database } from '../db/client.ts';
import { enterpriseAuthFiles, enterprises, type EnterpriseAuthFileRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { detectAuthFileType } from '../uploads/fileType.ts';
import type { ObjectStore, StoredObject } from '../storage/objectStore.ts';
import { newStoredName, uploadKey } from '../uploads/storage.ts';
import { writeAudit } from './audit.ts';
import {
  deletableStatus,
  isOperator,
  ownEnterpriseOrFail,
  statusWords,
  toAuthFileData,
  type EnterpriseActor,
} from './enterpriseView.ts';

/**
 * A name safe to keep and to show: the last path segment only (a name like `../../etc/passwd` or
 * `C:\x\a.pdf` keeps `passwd` / `a.pdf`), without control or bidirectional-override characters,
 * at most 255 characters; never used to build a path.
 */
export function cleanOriginalName(name: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  const cleaned = last.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  const usable = cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
  return [...usable].slice(0, 255).join('');
}

function filesLocked(actor: EnterpriseActor, status: number): ApiError {
  return ApiError.conflict('enterprise.error.filesLocked', { status: statusWords(actor.locale, status) });
}

/** The upload's type by content (its first bytes); anything but PDF, JPEG or PNG → 400 naming the rule. */
async function checkedType(file: File): Promise<AuthFileContentType> {
  if (file.size > maxAuthFileBytes) {
    throw ApiError.field('file', 'enterprise.validation.fileTooLarge');
  }
  const type = detectAuthFileType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!type) {
    throw ApiError.field('file', 'enterprise.validation.fileType');
  }
  return type;
}

/** The stream, unchanged, feeding every chunk to the hash on its way. */
function hashing(source: ReadableStream<Uint8Array>, hash: Hash): ReadableStream<Uint8Array> {
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
}

export interface UploadInput {
  kind: AuthFileKindName;
  file: File;
}

/** enterpriseauthfile/upload — stores the file for the user's own enterprise, replacing one of the same kind. */
export async function uploadAuthFile(
  db: Database,
  actor: EnterpriseActor,
  objects: ObjectStore,
  input: UploadInput,
): Promise<AuthFileData> {
  const size = input.file.size;
  const contentType = await checkedType(input.file);
  // Checked before the bytes are written too, so a refused upload leaves no file behind.
  const before = await ownEnterpriseOrFail(db, actor.user.id);
  if (!deletableStatus(before.authStatus)) throw filesLocked(actor, before.authStatus);

  const storedName = newStoredName();
  const key = uploadKey(storedName);
  const hash = createHash('sha256');
  try {
    await objects.put(key, hashing(input.file.stream(), hash), { size, contentType });
  } catch (error) {
    // A put that failed stored nothing; a lost answer to one that did leaves no orphan either.
    await objects.remove([key]).catch(() => {});
    throw error;
  }
  const sha256 = hash.digest('hex');
  let result: { row: EnterpriseAuthFileRow; replaced: string | null };
  try {
    result = await db.transaction(async (tx) => {
      const enterprise = await ownEnterpriseOrFail(tx, actor.user.id, true);
      if (!deletableStatus(enterprise.authStatus)) throw filesLocked(actor, enterprise.authStatus);
      const [old] = await tx
        .delete(enterpriseAuthFiles)
        .where(and(eq(enterpriseAuthFiles.enterpriseId, enterprise.id), eq(enterpriseAuthFiles.kind, input.kind)))
        .returning({ storedName: enterpriseAuthFiles.storedName });
      const [row] = await tx
        .insert(enterpriseAuthFiles)
        .values({
          enterpriseId: enterprise.id,
          kind: input.kind,
          originalName: cleanOriginalName(input.file.name),
          storedName,
          contentType,
          size,
          sha256,
          uploadedByUserId: actor.user.id,
        })
        .returning();
      await tx.update(enterprises).set({ updatedAt: new Date() }).where(eq(enterprises.id, enterprise.id));
      await writeAudit(tx, {
        userId: actor.user.id,
        action: 'enterprise.fileUpload',
        target: `enterprise:${enterprise.id}`,
        detail: { fileId: row!.id, kind: input.kind, contentType, size, sha256, replaced: old !== undefined },
        ip: actor.ip,
      });
      return { row: row!, replaced: old?.storedName ?? null };
    });
  } catch (error) {
    await objects.remove([key]);
    throw error;
  }
  if (result.replaced) await objects.remove([uploadKey(result.replaced)]);
  return toAuthFileData(result.row);
}

/** enterpriseauthfile/deleteElectricity — one file of the user's own enterprise (0 or 3 only). */
export async function deleteAuthFile(
  db: Database,
  actor: EnterpriseActor,
  objects: ObjectStore,
  fileId: number,
): Promise<void> {
  const storedName = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ file: enterpriseAuthFiles, enterprise: enterprises })
      .from(enterpriseAuthFiles)
      .innerJoin(enterprises, eq(enterprises.id, enterpriseAuthFiles.enterpriseId))
      .where(and(eq(enterpriseAuthFiles.id, fileId), eq(enterprises.ownerUserId, actor.user.id)))
      .limit(1)
      .for('update');
    if (!found) throw ApiError.notFound();
    if (!deletableStatus(found.enterprise.authStatus)) throw filesLocked(actor, found.enterprise.authStatus);
    await tx.delete(enterpriseAuthFiles).where(eq(enterpriseAuthFiles.id, found.file.id));
    await tx.update(enterprises).set({ updatedAt: new Date() }).where(eq(enterprises.id, found.enterprise.id));
    await writeAudit(tx, {
      userId: actor.user.id,
      action: 'enterprise.fileDelete',
      target: `enterprise:${found.enterprise.id}`,
      detail: { fileId: found.file.id, kind: found.file.kind, sha256: found.file.sha256 },
      ip: actor.ip,
    });
    return found.file.storedName;
  });
  await objects.remove([uploadKey(storedName)]);
}

export interface StoredAuthFile {
  row: EnterpriseAuthFileRow;
  /** The bytes as a stream (read it, or cancel it), and their number. */
  object: StoredObject;
}

/** enterpriseauthfile/download — the owner's or, for an operator, any enterprise's file; else 404. */
export async function readAuthFile(
  db: Database,
  actor: EnterpriseActor,
  objects: ObjectStore,
  fileId: number,
): Promise<StoredAuthFile> {
  const [found] = await db
    .select({ file: enterpriseAuthFiles, ownerUserId: enterprises.ownerUserId })
    .from(enterpriseAuthFiles)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseAuthFiles.enterpriseId))
    .where(eq(enterpriseAuthFiles.id, fileId))
    .limit(1);
  if (!found || (found.ownerUserId !== actor.user.id && !isOperator(actor.user))) throw ApiError.notFound();
  const object = await objects.get(uploadKey(found.file.storedName));
  if (!object) throw ApiError.notFound('enterprise.error.fileGone');
  return { row: found.file, object };
}
