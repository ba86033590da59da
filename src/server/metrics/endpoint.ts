/**
 * `GET /metrics`, guarded one of two ways (docs/deployment.md, "Metrics"):
 * - METRICS_TOKEN: on the API's own port, to `Authorization: Bearer <token>` only (401 otherwise);
 * - METRICS_PORT: a listener of its own serving /metrics alone, for a private network (also the
 *   worker's, which has no other listener); with METRICS_TOKEN set too, it asks for the token as well.
 * Neither configured: the API's /metrics does not exist (404, as any unknown path).
 */
import { Hono, type Context, type Env } from 'hono';
import { bearerToken, tokenMatches } from '../bearerToken.ts';
import type { Config } from '../config.ts';
import { listen, type Listener } from '../httpListeners.ts';
import type { MetricsRegistry } from './registry.ts';

export const metricsPath = '/metrics';

type MetricsConfig = Pick<Config, 'metricsToken' | 'metricsPort' | 'metricsHost'>;

/** Answers a scrape: the token checked first when one is configured. */
export function metricsHandler(registry: MetricsRegistry, token: string | undefined) {
  return async (c: Context): Promise<Response> => {
    if (token !== undefined && !tokenMatches(bearerToken(c.req.header('authorization')), token)) {
      return c.text('Unauthorized', 401, { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Cache-Control': 'no-store' });
    }
    const { contentType, body } = await registry.render(c.req.header('accept'));
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  };
}

/** /metrics on the API's port, when METRICS_TOKEN is set. */
export function mountMetrics<E extends Env>(app: Hono<E>, registry: MetricsRegistry, config: MetricsConfig): void {
  if (config.metricsToken !== undefined) app.get(metricsPath, metricsHandler(registry, config.metricsToken));
}

/** The listener of METRICS_PORT (on METRICS_HOST), or undefined when it is not set. */
export async function listenForMetrics(
  registry: MetricsRegistry,
  config: MetricsConfig,
): Promise<Listener | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const app = new Hono().get(metricsPath, metricsHandler(registry, config.metricsToken));
  return listen(app.fetch, { host: config.metricsHost, port: config.metricsPort }, 1);
}
