import { describe, expect, it } from 'vitest';
import { ConfigError, MAX_TOP_SYMBOLS, configMarkdownTable, loadConfig } from './env.ts';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.storage).toBe('pglite');
    expect(config.shared).toBe('memory');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('derives scaled mode from URLs', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://x@h/db', REDIS_URL: 'redis://h:6379' });
    expect(config.storage).toBe('postgres');
    expect(config.shared).toBe('redis');
  });

  it('names every bad variable and what is allowed', () => {
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('PORT="eighty" is not valid: an integer from 0 to 65535');
      expect(message).toContain(
        'LOG_LEVEL="loud" is not valid: one of fatal, error, warn, info, debug, trace, silent',
      );
      expect(message).toContain('DATABASE_URL');
    }
  });

  it('MERIDIAN_ALLOWED_HOSTS: host names, not URLs', () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(loadConfig({ MERIDIAN_ALLOWED_HOSTS: ' api.example.com, [::1]:8080,' }).allowedHosts).toEqual([
      'api.example.com',
      '[::1]:8080',
    ]);
    expect(() => loadConfig({ MERIDIAN_ALLOWED_HOSTS: 'https://api.example.com' })).toThrow(
      'MERIDIAN_ALLOWED_HOSTS entry "https://api.example.com" is not a host name',
    );
  });

  it('MERIDIAN_SYMBOLS: a list (default the seven) or top:N', () => {
    expect(loadConfig({}).universe).toEqual({
      kind: 'list',
      symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'],
    });
    expect(loadConfig({ MERIDIAN_SYMBOLS: ' btc-usd, eth/usdt ,,' }).universe).toEqual({
      kind: 'list',
      symbols: ['btc-usd', 'eth/usdt'],
    });
    expect(loadConfig({ MERIDIAN_SYMBOLS: 'top:200' }).universe).toEqual({ kind: 'top', count: 200 });
    expect(loadConfig({ MERIDIAN_SYMBOLS: ' TOP : 7 ' }).universe).toEqual({ kind: 'top', count: 7 });
    expect(loadConfig({ MERIDIAN_SYMBOLS: 'top:1' }).universe).toEqual({ kind: 'top', count: 1 });
    expect(loadConfig({ MERIDIAN_SYMBOLS: `top:${MAX_TOP_SYMBOLS}` }).universe).toEqual({
      kind: 'top',
      count: MAX_TOP_SYMBOLS,
    });
  });

  it.each([
    'top:0',
    `top:${MAX_TOP_SYMBOLS + 1}`,
    'top:-5',
    'top:2.5',
    'top:',
    'top:ten',
    'top:5,BTCUSDT',
    'BTCUSDT,top:5',
    ' , ,',
  ])('MERIDIAN_SYMBOLS=%j stops the start, naming the variable and what is allowed', (raw) => {
    try {
      loadConfig({ MERIDIAN_SYMBOLS: raw, PORT: '80' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        `MERIDIAN_SYMBOLS=${JSON.stringify(raw)} is not valid: top:N with N an integer from 1 to ${MAX_TOP_SYMBOLS} (on its own), or a comma-separated list of symbols`,
      ]);
    }
  });

  it('MERIDIAN_MARKET_PARTITIONS: 1 by default; more needs PostgreSQL and a live source', () => {
    expect(loadConfig({}).marketPartitions).toBe(1);
    const db = 'postgres://meridian@db/meridian';
    expect(loadConfig({ MERIDIAN_MARKET_PARTITIONS: '8', DATABASE_URL: db }).marketPartitions).toBe(8);
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ MERIDIAN_MARKET_PARTITIONS: '2' })).toEqual([
      expect.stringMatching(/^MERIDIAN_MARKET_PARTITIONS above 1 needs PostgreSQL/),
    ]);
    expect(
      problems({ MERIDIAN_MARKET_PARTITIONS: '2', DATABASE_URL: db, MERIDIAN_MARKET_SOURCE: 'replay:./rec' }),
    ).toEqual([expect.stringMatching(/^MERIDIAN_MARKET_PARTITIONS above 1 needs a live source/)]);
    expect(problems({ MERIDIAN_MARKET_PARTITIONS: '0' })).toHaveLength(1);
  });

  it('MERIDIAN_OIDC_*: off by default; the issuer needs its client and an explicit domain list', () => {
    const defaults = loadConfig({});
    expect(defaults.oidcIssuer).toBeUndefined();
    expect(defaults.passwordSignIn).toBe(true);
    expect(defaults.oidcDefaultRole).toBe('viewer');
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    const full = {
      MERIDIAN_OIDC_ISSUER: 'https://id.example.com',
      MERIDIAN_OIDC_CLIENT_ID: 'meridian',
      MERIDIAN_OIDC_CLIENT_SECRET: 'secret',
      MERIDIAN_OIDC_ALLOWED_DOMAINS: 'Example.com, example.org',
    };
    expect(loadConfig(full).oidcAllowedDomains).toEqual(['Example.com', 'example.org']);
    expect(problems({ ...full, MERIDIAN_OIDC_ALLOWED_DOMAINS: '' })).toEqual([
      expect.stringMatching(/needs MERIDIAN_OIDC_ALLOWED_DOMAINS/),
    ]);
    expect(
      problems({ MERIDIAN_OIDC_ISSUER: 'https://id.example.com', MERIDIAN_OIDC_ALLOWED_DOMAINS: '*' }),
    ).toEqual([
      expect.stringMatching(/needs MERIDIAN_OIDC_CLIENT_ID/),
      expect.stringMatching(/needs MERIDIAN_OIDC_CLIENT_SECRET/),
    ]);
    expect(problems({ ...full, MERIDIAN_OIDC_ISSUER: 'http://id.example.com' })).toEqual([
      expect.stringMatching(/must be https/),
    ]);
    expect(problems({ ...full, MERIDIAN_OIDC_ISSUER: 'http://127.0.0.1:9000' })).toEqual([]);
    expect(problems({ MERIDIAN_OIDC_CLIENT_ID: 'meridian' })).toEqual([
      expect.stringMatching(/need MERIDIAN_OIDC_ISSUER/),
    ]);
    expect(problems({ ...full, MERIDIAN_OIDC_DEFAULT_ROLE: 'admin' })).toHaveLength(1);
    // A bad secret-bearing value is never echoed: the problems name the variable only.
    expect(problems({ ...full, MERIDIAN_OIDC_ISSUER: 'ftp://x' }).join(' ')).not.toContain('secret');
  });

  it('documents every variable in the generated table', () => {
    const table = configMarkdownTable();
    for (const name of ['PORT', 'HOST', 'MERIDIAN_DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'LOG_LEVEL']) {
      expect(table).toContain(`\`${name}\``);
    }
  });
});
