import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';

describe('config', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: 'localhost',
      port: 4321,
      databaseUrl: undefined,
      logLevel: 'info',
      bodyLimitBytes: 1024 * 1024,
      uploadLimitBytes: 11 * 1024 * 1024,
      cookieSecure: 'auto',
      trustProxy: false,
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      publicOrigin: undefined,
      seedDemoAccounts: true,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.staticDir).toMatch(/\/dist$/);
  });

  it('reads and converts values', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/hgd',
      TRUST_PROXY: '1',
      COOKIE_SECURE: 'true',
      PUBLIC_ORIGIN: 'https://Portal.Example.com/',
      SEED_DEMO_ACCOUNTS: 'false',
      LOG_LEVEL: ' ',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/hgd',
      trustProxy: true,
      cookieSecure: 'always',
      publicOrigin: 'https://portal.example.com',
      seedDemoAccounts: false,
      logLevel: 'info',
    });
  });

  it('fails with a message naming every bad variable', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_ORIGIN: 'https://a.example/path', COOKIE_SECURE: 'maybe' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const text = String((error as Error).message);
      for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_ORIGIN', 'COOKIE_SECURE']) expect(text).toContain(name);
      expect(text).toContain('"eighty"');
    }
  });
});
