/**
 * What `/metrics` serves: a registry per app (or per worker), never prom-client's global one, so
 * that tests making many apps in one process never register a name twice; merged at each scrape
 * with the process's own metrics, made once per process — prom-client's defaults (memory, CPU,
 * event-loop delay, GC, handles), the release it runs and the rate-limit refusals (instruments.ts).
 *
 * Format: the Prometheus text format (what promtool and every Prometheus-compatible scraper read),
 * or OpenMetrics when the scraper's Accept asks for `application/openmetrics-text` — the only
 * format that carries exemplars (the request id on the HTTP duration's buckets).
 */
import { collectDefaultMetrics, Registry, type Metric, type OpenMetricsContentType } from 'prom-client';
import { currentRelease } from '../release.ts';
import { buildInfo, rateLimitRefusals, type Instrumented } from './instruments.ts';

export interface Exposition {
  contentType: string;
  body: string;
}

export interface MetricsRegistry {
  /** Adds the instruments of parts of the server (the same instrument twice is fine; another with a taken name throws). */
  add(...parts: ReadonlyArray<Instrumented | undefined>): void;
  /** Every metric, in the format `accept` asks for. */
  render(accept: string | undefined): Promise<Exposition>;
}

/**
 * prom-client's defaults that promtool's lint rejects (gauges named `_total`); the same figures
 * are served as `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources` by type.
 */
const lintFailingDefaults = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

let processMetrics: Metric[] | undefined;

/**
 * The process's metrics, collected from the first scrape on (an unscraped process, a CLI or a
 * test, starts no event-loop monitor).
 */
function processWide(): Metric[] {
  if (!processMetrics) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    for (const name of lintFailingDefaults) registry.removeSingleMetric(name);
    processMetrics = [
      ...(registry.getMetricsAsArray() as unknown as Metric[]),
      buildInfo(currentRelease()),
      rateLimitRefusals,
    ];
  }
  return processMetrics;
}

interface Named {
  name: string;
}

async function renderOpenMetrics(metrics: readonly Metric[]): Promise<string> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const metric of metrics) registry.registerMetric(metric);
  // prom-client renames each counter in place for OpenMetrics (`x_total` → `x`) and never back, so
  // the next classic scrape would print counters without `_total`. Their names are read when
  // rendering starts (no counter of ours collects asynchronously), so they are put back at once,
  // before any other scrape can run.
  const names = metrics.map((metric) => (metric as unknown as Named).name);
  const rendering = registry.metrics();
  metrics.forEach((metric, index) => ((metric as unknown as Named).name = names[index]!));
  return rendering;
}

export function createMetricsRegistry(): MetricsRegistry {
  const own = new Registry();
  const metrics: Metric[] = [];
  return {
    add(...parts) {
      for (const metric of parts.flatMap((part) => part?.metrics ?? [])) {
        if (metrics.includes(metric)) continue;
        own.registerMetric(metric);
        metrics.push(metric);
      }
    },
    async render(accept) {
      const all = [...metrics, ...processWide()];
      if (accept?.includes('application/openmetrics-text'))
        return { contentType: Registry.OPENMETRICS_CONTENT_TYPE, body: await renderOpenMetrics(all) };
      const registry = new Registry();
      for (const metric of all) registry.registerMetric(metric);
      return { contentType: Registry.PROMETHEUS_CONTENT_TYPE, body: await registry.metrics() };
    },
  };
}
