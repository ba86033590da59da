/**
 * The metrics' own logic (metrics/instruments.ts, metrics/registry.ts) and their settings
 * (config.ts): statement kinds, scrape-time readings, both formats, METRICS_* validation.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { httpMetrics, scrapeRead, sessionMetrics, statementOperation } from '../../src/server/metrics/instruments.ts';
import { createMetricsRegistry } from '../../src/server/metrics/registry.ts';

const openMetrics = 'application/openmetrics-text; version=1.0.0';

describe('statementOperation', () => {
  it('names a statement by its first word, never its text', () => {
    expect(statementOperation('select "id" from "users" where "id" = $1')).toBe('select');
    expect(statementOperation('\n      with live as (select 1) select * from live')).toBe('with');
    expect(statementOperation('(select 1) union (select 2)')).toBe('select');
    expect(statementOperation('INSERT INTO rate_limits VALUES ($1)')).toBe('insert');
    expect(statementOperation('update x set y = 1')).toBe('update');
    expect(statementOperation('delete from x')).toBe('delete');
    expect(statementOperation('without_a_keyword')).toBe('other');
    expect(statementOperation('notify site_publication')).toBe('other');
    expect(statementOperation('')).toBe('other');
  });
});

describe('scrapeRead', () => {
  const timing = { freshMs: 200, waitMs: 50, staleMs: 1_000 };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('reads once while fresh, again once it is not', async () => {
    let reads = 0;
    const read = scrapeRead(async () => ++reads, timing);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    await sleep(250);
    expect(await read()).toBe(2);
  });

  it('never waits longer than waitMs: serves the last reading while a slow one goes on, one at a time', async () => {
    let reads = 0;
    let slow = false;
    const read = scrapeRead(async () => {
      reads += 1;
      if (slow) await sleep(1_500);
      return reads;
    }, timing);
    expect(await read()).toBe(1);
    await sleep(250);
    slow = true;
    const started = performance.now();
    expect(await read()).toBe(1);
    // Far below the slow reading's 1.5 s: it served the last reading (a busy machine delays timers).
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await read()).toBe(1);
    expect(reads).toBe(2);
    await sleep(1_550);
    expect(await read()).toBe(2);
  });

  it('serves nothing when every reading failed or the last one is stale', async () => {
    let fail = true;
    const read = scrapeRead(
      async () => {
        if (fail) throw new Error('no table yet');
        return 'ok';
      },
      { ...timing, staleMs: 300 },
    );
    expect(await read()).toBeUndefined();
    fail = false;
    expect(await read()).toBe('ok');
    fail = true;
    await sleep(350);
    expect(await read()).toBeUndefined();
  });
});

describe('the registry', () => {
  it('serves the classic format by default and OpenMetrics when asked; an OpenMetrics scrape leaves counter names as they were', async () => {
    const registry = createMetricsRegistry();
    const sessions = sessionMetrics();
    registry.add(sessions);
    sessions.checked('valid');
    const classic = await registry.render(undefined);
    expect(classic.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(classic.body).toContain('# TYPE hgd_session_checks_total counter');
    expect(classic.body).toContain('hgd_session_checks_total{outcome="valid"} 1');
    const open = await registry.render(`${openMetrics},text/plain;q=0.5`);
    expect(open.contentType).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    expect(open.body).toContain('# TYPE hgd_session_checks counter');
    expect(open.body).toContain('hgd_session_checks_total{outcome="valid"} 1');
    expect(open.body.endsWith('# EOF\n')).toBe(true);
    expect((await registry.render('text/plain')).body).toContain('# TYPE hgd_session_checks_total counter');
  });

  it('merges the process metrics, minus the gauges promtool rejects', async () => {
    const { body } = await createMetricsRegistry().render(undefined);
    expect(body).toContain('# TYPE process_cpu_seconds_total counter');
    expect(body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(body).toContain('# TYPE hgd_rate_limit_refusals_total counter');
    expect(body).not.toContain('nodejs_active_handles_total');
  });

  it('takes the same instrument twice, but not two of one name', () => {
    const registry = createMetricsRegistry();
    const sessions = sessionMetrics();
    registry.add(sessions, sessions, undefined);
    expect(() => registry.add(sessionMetrics())).toThrow(/hgd_session_checks_total/);
  });

  it("keeps a long request id as an exemplar within OpenMetrics' 128 characters", async () => {
    const registry = createMetricsRegistry();
    const http = httpMetrics();
    registry.add(http);
    const longId = 'x'.repeat(128);
    http.observe('GET', '/api/x', 200, 0.003, longId);
    http.observe('BREW', '/api/x', 503, 0.2, 'short-id-1');
    const { body } = await registry.render(openMetrics);
    expect(body).toContain(`# {request_id="${'x'.repeat(118)}"} 0.003`);
    expect(body).toContain('http_request_duration_seconds_count{method="OTHER",route="/api/x",status_class="5xx"} 1');
  });
});

describe('METRICS_* settings', () => {
  const problem = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('defaults: measured, nothing served', () => {
    expect(loadConfig({})).toMatchObject({
      metricsEnabled: true,
      metricsToken: undefined,
      metricsPort: undefined,
      metricsHost: 'localhost',
    });
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464' })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metricsHost).toBe('10.0.0.5');
  });

  it('refuses a short METRICS_TOKEN in one line naming it, never echoing it', () => {
    const message = problem({ METRICS_TOKEN: 'too-short-secret-value' });
    expect(message).toContain('METRICS_TOKEN=[hidden]: must be at least 32 characters');
    expect(message).not.toContain('too-short-secret-value');
  });

  it('refuses a METRICS_PORT that is not a port, or is PORT', () => {
    expect(problem({ METRICS_PORT: 'abc' })).toMatch(/^ {2}METRICS_PORT="abc": /m);
    expect(problem({ METRICS_PORT: '70000' })).toContain('METRICS_PORT="70000"');
    expect(problem({ PORT: '8080', METRICS_PORT: '8080' })).toContain('METRICS_PORT=8080 is PORT');
  });

  it('refuses METRICS_ENABLED=false beside what would serve metrics', () => {
    expect(problem({ METRICS_ENABLED: 'false', METRICS_PORT: '9464' })).toContain(
      'METRICS_ENABLED=false with METRICS_PORT set',
    );
    expect(loadConfig({ METRICS_ENABLED: 'false' }).metricsEnabled).toBe(false);
    expect(problem({ METRICS_ENABLED: 'maybe' })).toContain('METRICS_ENABLED="maybe"');
  });
});
