/**
 * The xlsx reader's thread (started by readerThread.ts, never imported by the app): one bounded
 * read per message, answered in order. Only Node's own type stripping runs this file: erasable
 * TypeScript only.
 */
import { parentPort } from 'node:worker_threads';
import { readFirstSheetBounded, XlsxRefused } from './reader.ts';
import type { XlsxThreadReply, XlsxThreadRequest } from './readerThread.ts';

parentPort!.on('message', ({ bytes, limits }: XlsxThreadRequest) => {
  readFirstSheetBounded(bytes, limits).then(
    (rows) => parentPort!.postMessage({ ok: true, rows } satisfies XlsxThreadReply),
    (error: unknown) =>
      parentPort!.postMessage({
        ok: false,
        refusal: error instanceof XlsxRefused ? error.refusal : undefined,
        message: error instanceof Error ? error.message : String(error),
      } satisfies XlsxThreadReply),
  );
});
