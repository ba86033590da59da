/**
 * Streamed /api answers (the xlsx exports) can fail after their headers are out, when the error
 * handler can no longer answer. The Node adapter then prints the error with `console.error` and
 * writes its message to the client — for a failed query, the SQL and its parameters. This guard
 * re-streams such bodies: a failure is logged by the app's logger (safeError: no values) and
 * handed on as a plain `StreamAborted`, so neither the console nor the client sees the original.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';

export class StreamAborted extends Error {
  constructor() {
    super('response stream aborted');
    this.name = 'StreamAborted';
  }
}

export const streamGuard = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  // Envelopes are answered whole; only a real stream needs the guard. The type is read first:
  // reading `.body` of a whole answer would turn it into a stream (answerHeader.ts).
  const contentType = c.res.headers.get('content-type') ?? '';
  if (contentType.startsWith('application/json')) return;
  const source = c.res.body;
  if (!source) return;
  const log = c.get('log');
  const path = c.req.path;
  const reader = source.getReader();
  const guarded = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        log?.error({ err: error, path }, 'response stream failed');
        controller.error(new StreamAborted());
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  c.res = new Response(guarded, { status: c.res.status, headers: c.res.headers });
});
