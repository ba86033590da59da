/** API answers are personal and current: never cached by the browser or a proxy. */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';

export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('Cache-Control', 'no-store');
});
