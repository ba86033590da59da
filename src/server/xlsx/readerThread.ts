/**
 * The bounded xlsx read (reader.ts) on a worker thread: parsing a large valid settlement
 * sheet takes read-excel-file seconds of synchronous work, which on the server's thread stopped every
 * other request for as long. The thread starts at the first read and stays (starting one is not
 * free: both measured in docs/performance.md), without keeping the process alive; reads go to it one at a time (the caller queues
 * them: settlementFile.ts), the bytes handed over, not copied. A thread that dies is replaced at
 * the next read.
 */
import { Worker } from 'node:worker_threads';
import { XlsxRefused, type XlsxCellValue, type XlsxReadLimits, type XlsxRefusal } from './reader.ts';

export interface XlsxThreadRequest {
  bytes: Uint8Array;
  limits: XlsxReadLimits;
}

export type XlsxThreadReply =
  { ok: true; rows: XlsxCellValue[][] } | { ok: false; refusal: XlsxRefusal | undefined; message: string };

let thread: Worker | undefined;

function readerThread(): Worker {
  if (thread) return thread;
  const started = new Worker(new URL('./readerWorker.ts', import.meta.url));
  started.unref();
  started.once('exit', () => {
    if (thread === started) thread = undefined;
  });
  thread = started;
  return started;
}

/** readFirstSheetBounded, run on the reader's thread; throws XlsxRefused as it does. Call one at a time. */
export async function readFirstSheetOffThread(bytes: Uint8Array, limits: XlsxReadLimits): Promise<XlsxCellValue[][]> {
  const worker = readerThread();
  const copy = bytes.slice();
  worker.ref();
  try {
    const reply = await new Promise<XlsxThreadReply>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the xlsx reader stopped (exit code ${code})`));
      worker.once('message', (message: XlsxThreadReply) => {
        worker.off('exit', onExit);
        worker.off('error', reject);
        resolve(message);
      });
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.postMessage({ bytes: copy, limits } satisfies XlsxThreadRequest, [copy.buffer as ArrayBuffer]);
    });
    if (reply.ok) return reply.rows;
    if (reply.refusal) throw new XlsxRefused(reply.refusal);
    throw new Error(reply.message);
  } finally {
    worker.unref();
  }
}
