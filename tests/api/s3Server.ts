/**
 * A real S3-compatible server for the tests: s3rver (npm, MIT) in a child process on 127.0.0.1,
 * on a free port, storing into a throwaway directory, with one bucket made. No mock of the S3
 * client anywhere: the code under test speaks HTTP to it like to AWS, MinIO or OSS.
 * @example
 * const s3 = await startS3Server();
 * const store = createS3Store({ ...s3.options, prefix: 'test' });
 * await s3.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3StoreOptions } from '../../src/server/storage/s3Store.ts';

/** s3rver's account (its documented defaults). It checks the access key id, not SigV4 signatures. */
const accessKeyId = 'S3RVER';
const secretAccessKey = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the objects (to see what is in the bucket from outside the client). */
  directory: string;
  /** What createS3Store needs to reach the bucket. */
  options: S3StoreOptions;
  /** The server's variables as the portal reads them (STORAGE=s3 …). */
  env: Record<string, string>;
  /** Stops the server's process (SIGSTOP): connections are taken by the kernel and never answered, as by a hung service. */
  freeze(): void;
  /** Lets it go on (SIGCONT). */
  thaw(): void;
  stop(): Promise<void>;
}

const mainScript = fileURLToPath(new URL('./s3ServerMain.ts', import.meta.url));

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end >= 0) {
        child.stdout?.off('data', onData);
        resolve(buffered.slice(0, end));
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
}

export async function startS3Server(bucket = 'hgd-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'hgd-s3rver-'));
  // s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider.
  const child = spawn(process.execPath, ['--openssl-legacy-provider', mainScript, directory, bucket], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let port: number;
  try {
    port = (JSON.parse(await firstLine(child)) as { port: number }).port;
  } catch (error) {
    child.kill();
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    endpoint,
    bucket,
    directory,
    options: { endpoint, bucket, region: 'us-east-1', forcePathStyle: true, accessKeyId, secretAccessKey },
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    },
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    stop: async () => {
      child.kill('SIGCONT');
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
