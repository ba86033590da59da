/**
 * Where uploaded certification files live: the object store (storage/objectStore.ts), under the
 * key `uploads/<stored name>` — DATA_DIR/uploads/<stored name> with the local engine, as before
 * the object store existed, so an existing install's files are found where they are. Outside the
 * web root either way: a file is reachable only through the download call that checks who asks.
 * Names are generated here, never taken from the upload, so nothing the client sends becomes a key.
 */
import { randomBytes } from 'node:crypto';
import { InvalidKeyError } from '../storage/objectStore.ts';

/** A stored name: 32 hex characters, nothing else (checked before a key is built from it). */
const storedNamePattern = /^[0-9a-f]{32}$/;

export function newStoredName(): string {
  return randomBytes(16).toString('hex');
}

/** The object key of a stored name. */
export function uploadKey(storedName: string): string {
  if (!storedNamePattern.test(storedName)) throw new InvalidKeyError(storedName, 'stored file name');
  return `uploads/${storedName}`;
}
