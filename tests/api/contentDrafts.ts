/** Test helper: an editor's draft written as a content file would be (no field checks: the build's check is under test). */
import { getItem, itemsOfFiles, saveDraft } from '../../src/server/studio/contentRepo.ts';
import type { Database } from '../../src/server/db/client.ts';

export async function saveFileDraft(db: Database, path: string, text: string, userId = 1): Promise<void> {
  const [item] = itemsOfFiles(new Map([[path, text]]));
  const current = await getItem(db, path);
  await saveDraft(db, { path, kind: item!.kind, data: item!.data, revision: current?.revision ?? 0, userId });
}
