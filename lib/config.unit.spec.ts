import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_CURSOR_SECRET, DEV_KEY_PEPPER, MIN_KEY_PEPPER_LENGTH, MIN_SQL_TOKEN_LENGTH, loadConfig, quotesLookbackMs, simClockStart } from './config.ts';

/** The ConfigError message loadConfig throws for env (fails the test when it does not throw). */
function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('loadConfig accepted the configuration');
}

describe('config', () => {
  it("the quotes channel's lookback reaches past a full crawl with change-only ingestion, and a shorter one is refused, quoted", () => {
    expect(quotesLookbackMs(loadConfig({}))).toBe(loadConfig({}).POLL_REFRESH_MS + 3_600_000);
    expect(quotesLookbackMs(loadConfig({ POLL_CHANGE_ONLY: 'false' }))).toBe(2 * 3_600_000);
    expect(quotesLookbackMs(loadConfig({ STREAM_QUOTES_LOOKBACK_MS: '90000000' }))).toBe(90_000_000);
    const msg = configError({ POLL_REFRESH_MS: '7200000', STREAM_QUOTES_LOOKBACK_MS: '3600000' });
    expect(msg).toContain('STREAM_QUOTES_LOOKBACK_MS 3600000 is not above POLL_REFRESH_MS 7200000');
    expect(() => loadConfig({ POLL_CHANGE_ONLY: 'false', STREAM_QUOTES_LOOKBACK_MS: '3600000' })).not.toThrow();
  });

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

describe('PIPELINE_THREAD', () => {
  it('defaults to on with ROLES=all and no REDIS_URL, off where it cannot apply; false keeps the single thread', () => {
    expect(loadConfig({}).PIPELINE_THREAD).toBe(true);
    expect(loadConfig({ ROLES: 'all' }).PIPELINE_THREAD).toBe(true);
    expect(loadConfig({ PIPELINE_THREAD: 'false' }).PIPELINE_THREAD).toBe(false);
    expect(loadConfig({ ROLES: 'api', KAFKA_BROKERS: 'localhost:9092' }).PIPELINE_THREAD).toBe(false);
    const secret = randomBytes(24).toString('hex');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', KEY_PEPPER: secret, CATALOG_CURSOR_SECRET: secret }).PIPELINE_THREAD).toBe(false);
  });

  it('is refused beside REDIS_URL or without ROLES=all when asked for, saying why', () => {
    expect(loadConfig({ PIPELINE_THREAD: 'true' }).PIPELINE_THREAD).toBe(true);
    expect(configError({ PIPELINE_THREAD: 'true', ROLES: 'api' })).toContain('PIPELINE_THREAD="true": splits ROLES=all only (the API\'s thread and the pipeline\'s), got ROLES="api"');
    const secret = randomBytes(24).toString('hex');
    expect(configError({ PIPELINE_THREAD: 'true', REDIS_URL: 'redis://127.0.0.1:6379', KEY_PEPPER: secret, CATALOG_CURSOR_SECRET: secret })).toContain("keeps the in-process snapshot store on the API's thread; with REDIS_URL set, unset PIPELINE_THREAD");
  });
});

describe('PRICE_HISTORY', () => {
  it('is on by default, turned off by false or 0, and a value other than a boolean is refused, quoted', () => {
    expect(loadConfig({}).PRICE_HISTORY).toBe(true);
    expect(loadConfig({ PRICE_HISTORY: 'false' }).PRICE_HISTORY).toBe(false);
    expect(loadConfig({ PRICE_HISTORY: '0' }).PRICE_HISTORY).toBe(false);
    expect(configError({ PRICE_HISTORY: 'off' })).toMatch(/PRICE_HISTORY="off"/);
  });
});

describe('PRICE_CANDLE_ROLLUP_MS', () => {
  it('defaults to 10 s; 0 turns the roll-up off on this process; under 100 ms otherwise is refused, quoted', () => {
    expect(loadConfig({}).PRICE_CANDLE_ROLLUP_MS).toBe(10_000);
    expect(loadConfig({ PRICE_CANDLE_ROLLUP_MS: '0' }).PRICE_CANDLE_ROLLUP_MS).toBe(0);
    expect(loadConfig({ PRICE_CANDLE_ROLLUP_MS: '60000' }).PRICE_CANDLE_ROLLUP_MS).toBe(60_000);
    expect(configError({ PRICE_CANDLE_ROLLUP_MS: '50' })).toMatch(/PRICE_CANDLE_ROLLUP_MS="50"/);
  });
});

describe('PRICES_STALE_MS', () => {
  it('defaults to a minute and takes whole milliseconds of at least a second', () => {
    expect(loadConfig({}).PRICES_STALE_MS).toBe(60_000);
    expect(loadConfig({ PRICES_STALE_MS: '15000' }).PRICES_STALE_MS).toBe(15_000);
    expect(configError({ PRICES_STALE_MS: '500' })).toMatch(/PRICES_STALE_MS="500"/);
    expect(configError({ PRICES_STALE_MS: 'soon' })).toMatch(/PRICES_STALE_MS="soon"/);
  });
});

describe('KEY_PEPPER', () => {
  const REDIS_URL = 'redis://127.0.0.1:6379';
  // A fresh value per run: nothing below may echo it.
  const good = randomBytes(24).toString('base64url');

  it('the embedded default (no REDIS_URL) needs none and uses the built-in one', () => {
    expect(loadConfig({}).KEY_PEPPER).toBe(DEV_KEY_PEPPER);
    expect(loadConfig({ REDIS_URL: '' }).KEY_PEPPER).toBe(DEV_KEY_PEPPER);
    expect(loadConfig({ KEY_PEPPER: 'short' }).KEY_PEPPER).toBe('short');
  });

  it('with REDIS_URL, a missing or empty pepper stops the start, saying what to set', () => {
    for (const env of [{ REDIS_URL }, { REDIS_URL, KEY_PEPPER: '' }] as Record<string, string>[]) {
      const msg = configError(env);
      expect(msg).toContain('KEY_PEPPER (not set): is required when REDIS_URL is set');
      expect(msg).toContain(`set KEY_PEPPER to a random secret of at least ${MIN_KEY_PEPPER_LENGTH} characters`);
    }
  });

  it('with REDIS_URL, the development default is refused and not quoted', () => {
    const msg = configError({ REDIS_URL, KEY_PEPPER: DEV_KEY_PEPPER });
    expect(msg).toContain('KEY_PEPPER (value not shown): is the development default');
    expect(msg).not.toContain(DEV_KEY_PEPPER);
  });

  it('with REDIS_URL, a pepper shorter than the minimum is refused and not quoted', () => {
    const short = good.slice(0, MIN_KEY_PEPPER_LENGTH - 1);
    const msg = configError({ REDIS_URL, KEY_PEPPER: short });
    expect(msg).toContain(`KEY_PEPPER (value not shown): is shorter than ${MIN_KEY_PEPPER_LENGTH} characters`);
    expect(msg.includes(short)).toBe(false);
  });

  it('with REDIS_URL, a pepper of the minimum length or longer is accepted', () => {
    const CATALOG_CURSOR_SECRET = randomBytes(24).toString('base64url');
    expect(loadConfig({ REDIS_URL, KEY_PEPPER: good, CATALOG_CURSOR_SECRET }).KEY_PEPPER === good).toBe(true);
    const edge = good.slice(0, MIN_KEY_PEPPER_LENGTH);
    expect(loadConfig({ REDIS_URL, KEY_PEPPER: edge, CATALOG_CURSOR_SECRET }).KEY_PEPPER === edge).toBe(true);
  });
});

describe('CATALOG_CURSOR_SECRET (signs every cursor of the API)', () => {
  const REDIS_URL = 'redis://127.0.0.1:6379';
  const KEY_PEPPER = randomBytes(24).toString('base64url');
  const good = randomBytes(24).toString('base64url');

  it('the embedded default (no REDIS_URL) needs none and uses the built-in one', () => {
    expect(loadConfig({}).CATALOG_CURSOR_SECRET).toBe(DEV_CURSOR_SECRET);
  });

  it('with REDIS_URL, a missing, public default or short secret stops the start, not quoted', () => {
    expect(configError({ REDIS_URL, KEY_PEPPER })).toContain('CATALOG_CURSOR_SECRET (not set): is required when REDIS_URL is set');
    const dev = configError({ REDIS_URL, KEY_PEPPER, CATALOG_CURSOR_SECRET: DEV_CURSOR_SECRET });
    expect(dev).toContain('CATALOG_CURSOR_SECRET (value not shown): is the development default');
    expect(dev).not.toContain(DEV_CURSOR_SECRET);
    const short = good.slice(0, MIN_KEY_PEPPER_LENGTH - 1);
    const msg = configError({ REDIS_URL, KEY_PEPPER, CATALOG_CURSOR_SECRET: short });
    expect(msg).toContain(`CATALOG_CURSOR_SECRET (value not shown): is shorter than ${MIN_KEY_PEPPER_LENGTH} characters`);
    expect(msg.includes(short)).toBe(false);
  });

  it('with REDIS_URL, a real secret is accepted', () => {
    expect(loadConfig({ REDIS_URL, KEY_PEPPER, CATALOG_CURSOR_SECRET: good }).CATALOG_CURSOR_SECRET === good).toBe(true);
  });
});

describe('HISTORY_SQL_PORT (the read-only ClickHouse HTTP port of the embedded history)', () => {
  const token = randomBytes(24).toString('base64url');

  it('is off by default, with its limits at their defaults', () => {
    const c = loadConfig({});
    expect(c.HISTORY_SQL_PORT).toBeUndefined();
    expect(c.HISTORY_SQL_TIMEOUT_MS).toBe(30_000);
    expect(c.HISTORY_SQL_MAX_RESULT_BYTES).toBe(64 * 1024 * 1024);
  });

  it('needs a token of the minimum length once the port is set, and never quotes it', () => {
    expect(configError({ HISTORY_SQL_PORT: '8124' })).toContain('HISTORY_SQL_TOKEN (not set): is required when HISTORY_SQL_PORT is set');
    const short = token.slice(0, MIN_SQL_TOKEN_LENGTH - 1);
    const msg = configError({ HISTORY_SQL_PORT: '8124', HISTORY_SQL_TOKEN: short });
    expect(msg).toContain(`HISTORY_SQL_TOKEN (value not shown): is shorter than ${MIN_SQL_TOKEN_LENGTH} characters`);
    expect(msg.includes(short)).toBe(false);
    const c = loadConfig({ HISTORY_SQL_PORT: '8124', HISTORY_SQL_TOKEN: token, HISTORY_SQL_TIMEOUT_MS: '5000', HISTORY_SQL_MAX_RESULT_BYTES: '1048576' });
    expect([c.HISTORY_SQL_PORT, c.HISTORY_SQL_TOKEN === token, c.HISTORY_SQL_TIMEOUT_MS, c.HISTORY_SQL_MAX_RESULT_BYTES]).toEqual([8124, true, 5000, 1048576]);
  });

  it('is refused beside CLICKHOUSE_URL (the server is queried directly), and a bad limit is quoted', () => {
    expect(configError({ HISTORY_SQL_PORT: '8124', HISTORY_SQL_TOKEN: token, CLICKHOUSE_URL: 'http://127.0.0.1:8123' })).toContain(
      'HISTORY_SQL_PORT="8124": serves the embedded history (chdb) only',
    );
    expect(configError({ HISTORY_SQL_TIMEOUT_MS: 'soon' })).toContain('HISTORY_SQL_TIMEOUT_MS="soon"');
    expect(configError({ HISTORY_SQL_MAX_RESULT_BYTES: '10' })).toContain('HISTORY_SQL_MAX_RESULT_BYTES="10"');
  });
});

describe('per-role defaults of the scale-out stack', () => {
  it('ROLES=all keeps .data and no metrics port', () => {
    const c = loadConfig({});
    expect(c.DATA_DIR).toBe('.data');
    expect(c.METRICS_PORT).toBe(0);
  });

  it('each role gets its own DATA_DIR, and each API replica its own by PORT', () => {
    const dirs = [
      loadConfig({ ROLES: 'simulator' }).DATA_DIR,
      loadConfig({ ROLES: 'pollers' }).DATA_DIR,
      loadConfig({ ROLES: 'processors' }).DATA_DIR,
      loadConfig({ ROLES: 'api', PORT: '8080' }).DATA_DIR,
      loadConfig({ ROLES: 'api', PORT: '8082' }).DATA_DIR,
    ];
    expect(dirs).toEqual(['.data/simulator', '.data/pollers', '.data/processors', '.data/api-8080', '.data/api-8082']);
    expect(loadConfig({ ROLES: 'processors, pollers' }).DATA_DIR).toBe('.data/pollers+processors');
  });

  it('a DATA_DIR that is set wins', () => {
    expect(loadConfig({ ROLES: 'processors', DATA_DIR: '/srv/pm' }).DATA_DIR).toBe('/srv/pm');
  });

  it('processors and pollers expose metrics on different default ports; METRICS_PORT wins', () => {
    const processors = loadConfig({ ROLES: 'processors' }).METRICS_PORT;
    const pollers = loadConfig({ ROLES: 'pollers' }).METRICS_PORT;
    expect(processors).toBeGreaterThan(0);
    expect(pollers).toBeGreaterThan(0);
    expect(processors).not.toBe(pollers);
    expect(loadConfig({ ROLES: 'api' }).METRICS_PORT).toBe(0);
    expect(loadConfig({ ROLES: 'processors', METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(loadConfig({ ROLES: 'pollers', METRICS_PORT: '29000' }).METRICS_PORT).toBe(29000);
  });
});

describe('per-venue endpoints', () => {
  it('reads a base URL, key and request budget per venue, and quotes a bad budget', () => {
    const c = loadConfig({ VENUE_3_BASE_URL: 'https://api.venue3.example/v2', VENUE_3_API_KEY: 'k', VENUE_3_RPS: '2.5' });
    expect([c.VENUE_3_BASE_URL, c.VENUE_3_API_KEY, c.VENUE_3_RPS, c.VENUE_4_BASE_URL]).toEqual(['https://api.venue3.example/v2', 'k', 2.5, undefined]);
    expect(() => loadConfig({ VENUE_7_RPS: 'lots' })).toThrow(/VENUE_7_RPS="lots"/);
    expect(() => loadConfig({ VENUE_7_RPS: '0' })).toThrow(/VENUE_7_RPS/);
    expect(() => loadConfig({ VENUE_1_BASE_URL: 'not a url' })).toThrow(/VENUE_1_BASE_URL="not a url"/);
  });
});

describe('change-only ingestion', () => {
  it('is on by default, with a full sports crawl every 6 hours', () => {
    const c = loadConfig({});
    expect([c.POLL_CHANGE_ONLY, c.POLL_REFRESH_MS]).toEqual([true, 21_600_000]);
    expect(loadConfig({ POLL_CHANGE_ONLY: 'false' }).POLL_CHANGE_ONLY).toBe(false);
  });

  it('leaves the listing feed whole unless POLL_CHANGE_ONLY_LISTING is set', () => {
    expect(loadConfig({}).POLL_CHANGE_ONLY_LISTING).toBe(false);
    expect(loadConfig({ POLL_CHANGE_ONLY_LISTING: 'true' }).POLL_CHANGE_ONLY_LISTING).toBe(true);
    expect(() => loadConfig({ POLL_CHANGE_ONLY_LISTING: 'sometimes' })).toThrow(/POLL_CHANGE_ONLY_LISTING/);
  });

  it('refuses a full-crawl cadence not inside the raw retention, quoting it', () => {
    const m = configError({ POLL_REFRESH_MS: '86400000', RAW_RETENTION_MS: '3600000' });
    expect(m).toContain('POLL_REFRESH_MS="86400000"');
    expect(m).toContain('RAW_RETENTION_MS 3600000');
    expect(() => loadConfig({ POLL_REFRESH_MS: 'often' })).toThrow(/POLL_REFRESH_MS="often"/);
    // Without change-only ingestion the sports feed's full crawls come every POLL_FULL_MS instead.
    expect(loadConfig({ POLL_CHANGE_ONLY: 'false', POLL_REFRESH_MS: '86400000', RAW_RETENTION_MS: '3600000' }).POLL_REFRESH_MS).toBe(86_400_000);
  });
});

describe('POLLER_THREAD (the venue pollers on a worker thread)', () => {
  it('is on with the embedded log and off with KAFKA_BROKERS, where pollers are a process of their own; a value that is set wins', () => {
    expect(loadConfig({}).POLLER_THREAD).toBe(true);
    expect(loadConfig({ KAFKA_BROKERS: '127.0.0.1:9092' }).POLLER_THREAD).toBe(false);
    expect(loadConfig({ POLLER_THREAD: 'false' }).POLLER_THREAD).toBe(false);
    expect(loadConfig({ KAFKA_BROKERS: '127.0.0.1:9092', POLLER_THREAD: 'true' }).POLLER_THREAD).toBe(true);
  });

  it('refuses a value that is not a boolean, quoting it', () => {
    expect(configError({ POLLER_THREAD: 'yes' })).toContain('POLLER_THREAD="yes"');
  });
});

describe('SIM_CLOCK_START', () => {
  it('takes an ISO instant with a zone; refuses anything else, quoted, from loadConfig and simClockStart alike', () => {
    expect(loadConfig({}).SIM_CLOCK_START).toBeUndefined();
    expect(simClockStart({})).toBeUndefined();
    expect(simClockStart({ SIM_CLOCK_START: '' })).toBeUndefined();
    expect(loadConfig({ SIM_CLOCK_START: '2026-11-28T21:00:00Z' }).SIM_CLOCK_START).toBe('2026-11-28T21:00:00Z');
    expect(simClockStart({ SIM_CLOCK_START: '2026-11-28T21:00:00Z' })).toBe(Date.parse('2026-11-28T21:00:00Z'));
    expect(simClockStart({ SIM_CLOCK_START: '2026-11-28T16:00:00-05:00' })).toBe(Date.parse('2026-11-28T21:00:00Z'));
    for (const bad of ['tomorrow', '2026-11-28', '2026-11-28T21:00:00', '1764363600000']) {
      expect(configError({ SIM_CLOCK_START: bad })).toContain(`SIM_CLOCK_START=${JSON.stringify(bad)}`);
      expect(() => simClockStart({ SIM_CLOCK_START: bad })).toThrow(ConfigError);
      expect(() => simClockStart({ SIM_CLOCK_START: bad })).toThrow(`SIM_CLOCK_START=${JSON.stringify(bad)}`);
    }
  });
});
