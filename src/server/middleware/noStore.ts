/** API answers are personal and current: never cached by the browser or a proxy. */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';
import { setAnswerHeader } from './answerHeader.ts';

export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  setAnswerHeader(c, 'Cache-Control', 'no-store');
});
