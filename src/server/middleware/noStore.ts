/**
 * API answers are personal and current: never cached by the browser or a proxy. An answer that
 * states its own policy (a file download's `private, no-store`) keeps it.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';
import { setAnswerHeader } from './answerHeader.ts';

export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!c.res.headers.has('Cache-Control')) setAnswerHeader(c, 'Cache-Control', 'no-store');
});
