import { describe, expect, it } from 'vitest';
import { ConfigError, configMarkdownTable, loadConfig } from './env.ts';

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

  it('documents every variable in the generated table', () => {
    const table = configMarkdownTable();
    for (const name of ['PORT', 'HOST', 'MERIDIAN_DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'LOG_LEVEL']) {
      expect(table).toContain(`\`${name}\``);
    }
  });
});
