/**
 * At build time only: records what each page reads (src/content/pageGraph.ts) and, in an
 * incremental build, writes a marker instead of rendering a page that cannot have changed (the
 * integration puts the base build's bytes there). The dev server and the API never reach it: no
 * recorder runs there.
 */
import { defineMiddleware } from 'astro:middleware';
import { propsFingerprint } from './content/dependencies.ts';
import { graphRecorder, pageKey, pageUnchanged, unchangedPageMarker } from './content/pageGraph.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  const recorder = graphRecorder();
  if (!recorder || !context.isPrerendered) return next();
  const key = pageKey(context.url.pathname);
  const props = propsFingerprint(context.props);
  if (pageUnchanged(recorder, key, props)) {
    const base = recorder.plan?.base.pages[key];
    if (base) recorder.pages[key] = base;
    return new Response(unchangedPageMarker, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }
  const reads = new Set<string>();
  recorder.current = reads;
  try {
    // Rendered here, while this page's reads are being recorded (pages render one at a time).
    const response = await next();
    const body = await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  } finally {
    recorder.current = undefined;
    recorder.pages[key] = { deps: [...reads].sort(), props };
  }
});
