/**
 * At build time only: records what each page reads and its props' fingerprint
 * (src/content/pageGraph.ts). An incremental build never renders a page that cannot have changed
 * (src/integrations/incremental.ts takes the base build's), so every page that reaches here is
 * rendered. The dev server and the API never reach it: no recorder runs there.
 */
import { defineMiddleware } from 'astro:middleware';
import { propsFingerprint } from './content/dependencies.ts';
import { graphRecorder, pageKey } from './content/pageGraph.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  const recorder = graphRecorder();
  if (!recorder || !context.isPrerendered) return next();
  const key = pageKey(context.url.pathname);
  const props = propsFingerprint(context.props);
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
