/**
 * The object store STORAGE names (objectStore.ts); one per process, made by openRuntime (which
 * checks it before the server listens) and handed to createApp.
 * - `local` (default): DATA_DIR itself, so certification files stay at DATA_DIR/uploads/<name>.
 * - `s3`: the bucket of S3_BUCKET at S3_ENDPOINT (docs/deployment.md, "Object storage").
 */
import type { Config } from '../config.ts';
import { createLocalStore } from './localStore.ts';
import type { ObjectStore } from './objectStore.ts';
import { createS3Store } from './s3Store.ts';

export function objectStoreFromConfig(config: Pick<Config, 'storage' | 's3' | 'dataDir'>): ObjectStore {
  if (config.storage === 's3' && config.s3) {
    const s3 = config.s3;
    return createS3Store({
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      forcePathStyle: s3.forcePathStyle,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      prefix: s3.prefix,
      timeoutMs: s3.timeoutMs,
    });
  }
  return createLocalStore(config.dataDir);
}

/** What the start-up banner says about where files are kept. */
export function storageBannerLine(config: Pick<Config, 'storage' | 's3' | 'dataDir'>): string {
  if (config.storage === 's3' && config.s3) {
    const { bucket, endpoint, region, prefix } = config.s3;
    return `  files: bucket ${bucket}${prefix ? ` (keys under ${prefix})` : ''} at ${endpoint ?? `AWS S3 ${region}`}`;
  }
  return `  files: ${config.dataDir} (local; set STORAGE=s3 when more than one API process runs)`;
}
