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
      bankProvider: 'sandbox',
      bankSandboxAllowed: false,
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
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_ORIGIN: 'https://a.example/path',
        COOKIE_SECURE: 'maybe',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const text = String((error as Error).message);
      for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_ORIGIN', 'COOKIE_SECURE']) expect(text).toContain(name);
      expect(text).toContain('"eighty"');
    }
  });

  describe('the bank: the sandbox is demo mode, never silently in a deployment', () => {
    const deployed = { PUBLIC_ORIGIN: 'https://portal.example.com' };

    it('defaults to the sandbox for a local run and to none once PUBLIC_ORIGIN is set', () => {
      expect(loadConfig({}).bankProvider).toBe('sandbox');
      expect(loadConfig(deployed).bankProvider).toBe('none');
      // The switch allows the sandbox; it does not choose it.
      expect(loadConfig({ ...deployed, BANK_SANDBOX_ALLOWED: 'true' }).bankProvider).toBe('none');
      expect(loadConfig({ BANK_PROVIDER: 'none' }).bankProvider).toBe('none');
      expect(loadConfig({ ...deployed, BANK_PROVIDER: 'none' }).bankProvider).toBe('none');
    });

    it('refuses BANK_PROVIDER=sandbox with PUBLIC_ORIGIN, naming the variables, unless BANK_SANDBOX_ALLOWED=true', () => {
      const attempt = () => loadConfig({ ...deployed, BANK_PROVIDER: 'sandbox' });
      expect(attempt).toThrow(ConfigError);
      const text = String(
        (() => {
          try {
            attempt();
          } catch (error) {
            return (error as Error).message;
          }
          return '';
        })(),
      );
      for (const name of ['BANK_PROVIDER', 'PUBLIC_ORIGIN', 'BANK_SANDBOX_ALLOWED']) expect(text).toContain(name);
      expect(loadConfig({ ...deployed, BANK_PROVIDER: 'sandbox', BANK_SANDBOX_ALLOWED: 'true' })).toMatchObject({
        bankProvider: 'sandbox',
        bankSandboxAllowed: true,
      });
      for (const off of ['false', '0'])
        expect(() => loadConfig({ ...deployed, BANK_PROVIDER: 'sandbox', BANK_SANDBOX_ALLOWED: off })).toThrow(
          ConfigError,
        );
      // Locally the sandbox needs no switch.
      expect(loadConfig({ BANK_PROVIDER: 'sandbox' }).bankProvider).toBe('sandbox');
    });

    it('knows no other bank, and the switch takes only a yes or no', () => {
      expect(() => loadConfig({ BANK_PROVIDER: 'icbc' })).toThrow(/BANK_PROVIDER/);
      expect(() => loadConfig({ BANK_SANDBOX_ALLOWED: 'sure' })).toThrow(/BANK_SANDBOX_ALLOWED/);
    });
  });

  describe('demo accounts: seeded for a local run, never silently in a deployment', () => {
    const deployed = { PUBLIC_ORIGIN: 'https://portal.example.com' };

    it('seeds them by default locally and not once PUBLIC_ORIGIN is set', () => {
      expect(loadConfig({}).seedDemoAccounts).toBe(true);
      expect(loadConfig(deployed).seedDemoAccounts).toBe(false);
      expect(loadConfig({ ...deployed, SEED_DEMO_ACCOUNTS: ' ' }).seedDemoAccounts).toBe(false);
    });

    it('follows an explicit SEED_DEMO_ACCOUNTS either way (a public demo seeds them knowingly)', () => {
      expect(loadConfig({ ...deployed, SEED_DEMO_ACCOUNTS: 'true' }).seedDemoAccounts).toBe(true);
      expect(loadConfig({ ...deployed, SEED_DEMO_ACCOUNTS: '1' }).seedDemoAccounts).toBe(true);
      expect(loadConfig({ SEED_DEMO_ACCOUNTS: 'false' }).seedDemoAccounts).toBe(false);
      expect(() => loadConfig({ SEED_DEMO_ACCOUNTS: 'sure' })).toThrow(/SEED_DEMO_ACCOUNTS/);
    });
  });
});
