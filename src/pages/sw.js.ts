/**
 * `/sw.js`: the offline-mode service worker of this build when the spec's `pwa` setting is on,
 * else a worker that removes itself (see src/lib/offline.ts).
 */
import type { APIRoute } from 'astro';
import { layoutSettings } from '../lib/layoutSettings.ts';
import { killSwitchWorkerSource, serviceWorkerSource } from '../lib/offline.ts';

/** One id per build: a new build changes the worker's bytes, which is how browsers notice it. */
const buildId = process.env['BUILD_ID'] ?? new Date().toISOString();

export const GET: APIRoute = () =>
  new Response(layoutSettings.pwa ? serviceWorkerSource(buildId) : killSwitchWorkerSource(), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
