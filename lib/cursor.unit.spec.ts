import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCursorCodec, cursorCodec } from './cursor.ts';
import { createCursorCodec as catalogCodec } from '../pipelines/catalog/cursor.ts';

const secret = `cursor-unit-${Math.random().toString(36).slice(2)}`;

describe('the one cursor codec', () => {
  it('round-trips a route and its fields', () => {
    const c = createCursorCodec(secret);
    const text = c.seal('spot', ['btcusdt', 0, 1_700_000_000_000, 100, null, true]);
    expect(text).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(c.open(text)).toEqual({ route: 'spot', fields: ['btcusdt', 0, 1_700_000_000_000, 100, null, true] });
    expect(cursorCodec(secret)).toBe(cursorCodec(secret));
  });

  it('refuses anything it did not sign: another secret, an edited payload or MAC, unsigned JSON, junk', () => {
    const c = createCursorCodec(secret);
    const text = c.seal('positions', ['0xabc', 0, 50]);
    const [payload, mac] = text.split('.');
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('50', '999')).toString('base64url');
    for (const bad of [
      createCursorCodec(`${secret}-other`).seal('positions', ['0xabc', 0, 50]),
      `${edited}.${mac}`,
      `${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      payload,
      Buffer.from(JSON.stringify({ v: 1, k: 'positions', w: '0xabc', o: 0, l: 999 })).toString('base64url'),
      '',
      '.',
      'a.b.c',
      `${payload}.${mac}!`,
      'x'.repeat(5000),
    ]) {
      expect(c.open(bad), bad.slice(0, 40)).toBeNull();
    }
  });

  it('reads the catalog cursors of the earlier codec (same form): a keyset position it can no longer serve is retired, an offset opens', () => {
    // The earlier catalog codec: base64url JSON [1, 'markets', ...] then the first 16 bytes of its HMAC-SHA256.
    const payload = Buffer.from(JSON.stringify([1, 'markets', '01JSNAP', 'sports', null, 3, 'venue_3:123'])).toString('base64url');
    const earlier = `${payload}.${createHmac('sha256', secret).update(payload).digest().subarray(0, 16).toString('base64url')}`;
    // Its keyset position pointed into chdb tables; pages now come from the SnapshotStore (the route answers it as stale).
    expect(catalogCodec(secret).decode(earlier)).toBe('retired');
    const now = catalogCodec(secret).encode({ snapshotId: '01JSNAP', category: 'sports', provider: null, offset: 200 });
    expect(catalogCodec(secret).decode(now)).toEqual({ snapshotId: '01JSNAP', category: 'sports', provider: null, offset: 200 });
    // And a catalog cursor is not another route's.
    expect(createCursorCodec(secret).open(earlier)?.route).toBe('markets');
  });
});
