/**
 * Certification files (enterpriseauthfile/upload, deleteElectricity, download; docs/enterprises.md):
 * the business licence and the letter of authorisation, one of each per enterprise. The type is
 * read from the bytes (PDF, JPEG, PNG), the size is at most 10 MB, the bytes go to a generated name
 * under DATA_DIR/uploads, and only the owner and operators get them back. Files change only while
 * the enterprise is not certified or returned (0, 3): under review the operator is reading them.
 *
 * Bytes and rows are kept in step: new bytes are written before the transaction (and removed if it
 * fails), old bytes are removed only after it committed, so a crash leaves at worst an orphan file,
 * never a row without its file.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { maxAuthFileBytes, type AuthFileData, type AuthFileKindName, type AuthFileContentType } from '../../lib/schemas/enterprise.ts';
import type { Database } from '../db/client.ts';
import { enterpriseAuthFiles, enterprises, type EnterpriseAuthFileRow } from '../db/schema/index.ts';
import { ApiError } from '../envelope.ts';
import { detectAuthFileType } from '../uploads/fileType.ts';
import { newStoredName, readStoredFile, removeStoredFiles, storeFile } from '../uploads/storage.ts';
import { writeAudit } from './audit.ts';
import { deletableStatus, isOperator, ownEnterpriseOrFail, statusWords, toAuthFileData, type EnterpriseActor } from './enterpriseView.ts';

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

/** The upload's type by content; anything but PDF, JPEG or PNG → 400 naming the rule. */
function checkedType(actor: EnterpriseActor, bytes: Uint8Array): AuthFileContentType {
  if (bytes.length > maxAuthFileBytes) {
    throw ApiError.field(actor.locale, 'file', 'enterprise.validation.fileTooLarge');
  }
  const type = detectAuthFileType(bytes);
  if (!type) {
    throw ApiError.field(actor.locale, 'file', 'enterprise.validation.fileType');
  }
  return type;
}

export interface UploadInput {
  kind: AuthFileKindName;
  file: File;
}

/** enterpriseauthfile/upload — stores the file for the user's own enterprise, replacing one of the same kind. */
export async function uploadAuthFile(db: Database, actor: EnterpriseActor, uploadsDir: string, input: UploadInput): Promise<AuthFileData> {
  const bytes = new Uint8Array(await input.file.arrayBuffer());
  const contentType = checkedType(actor, bytes);
  // Checked before the bytes are written too, so a refused upload leaves no file behind.
  const before = await ownEnterpriseOrFail(db, actor.user.id);
  if (!deletableStatus(before.authStatus)) throw filesLocked(actor, before.authStatus);

  const storedName = newStoredName();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await storeFile(uploadsDir, storedName, bytes);
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
          size: bytes.length,
          sha256,
          uploadedByUserId: actor.user.id,
        })
        .returning();
      await tx.update(enterprises).set({ updatedAt: new Date() }).where(eq(enterprises.id, enterprise.id));
      await writeAudit(tx, {
        userId: actor.user.id,
        action: 'enterprise.fileUpload',
        target: `enterprise:${enterprise.id}`,
        detail: { fileId: row!.id, kind: input.kind, contentType, size: bytes.length, sha256, replaced: old !== undefined },
        ip: actor.ip,
      });
      return { row: row!, replaced: old?.storedName ?? null };
    });
  } catch (error) {
    await removeStoredFiles(uploadsDir, [storedName]);
    throw error;
  }
  if (result.replaced) await removeStoredFiles(uploadsDir, [result.replaced]);
  return toAuthFileData(result.row);
}

/** enterpriseauthfile/deleteElectricity — one file of the user's own enterprise (0 or 3 only). */
export async function deleteAuthFile(db: Database, actor: EnterpriseActor, uploadsDir: string, fileId: number): Promise<void> {
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
  await removeStoredFiles(uploadsDir, [storedName]);
}

export interface StoredAuthFile {
  row: EnterpriseAuthFileRow;
  bytes: Buffer;
}

/** enterpriseauthfile/download — the owner's or, for an operator, any enterprise's file; else 404. */
export async function readAuthFile(db: Database, actor: EnterpriseActor, uploadsDir: string, fileId: number): Promise<StoredAuthFile> {
  const [found] = await db
    .select({ file: enterpriseAuthFiles, ownerUserId: enterprises.ownerUserId })
    .from(enterpriseAuthFiles)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseAuthFiles.enterpriseId))
    .where(eq(enterpriseAuthFiles.id, fileId))
    .limit(1);
  if (!found || (found.ownerUserId !== actor.user.id && !isOperator(actor.user))) throw ApiError.notFound();
  const bytes = await readStoredFile(uploadsDir, found.file.storedName);
  if (!bytes) throw ApiError.notFound('enterprise.error.fileGone');
  return { row: found.file, bytes };
}
