import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('applies embedded defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.KAFKA_BROKERS).toBeUndefined();
    expect(c.CATALOG_REFRESH_MS).toBe(1_800_000);
  });
  it('rejects a bad value quoting it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
  });
});
