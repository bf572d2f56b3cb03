import { describe, it, expect } from 'vitest';
import type { ApiError } from '../errors.ts';
import { checkParams, compilePathMatcher, compileRoute, parseQueryString, typeParams } from './router.ts';
import { ROUTES } from './table.ts';

const route = (id: string) => compileRoute(ROUTES.find((r) => r.id === id)!);
const thrown = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('did not throw');
};

describe('parseQueryString', () => {
  it('decodes &-separated percent-encoded pairs, + as space, skips empty segments', () => {
    expect(parseQueryString('a=1&b=x%20y+z&&c&d=')).toEqual([
      ['a', '1'],
      ['b', 'x y z'],
      ['c', ''],
      ['d', ''],
    ]);
    expect(parseQueryString('source_id=venue_5%3A%2312')).toEqual([['source_id', 'venue_5:#12']]);
    expect(parseQueryString('')).toEqual([]);
  });

  it('rejects ; separators, bad % escapes, non-UTF-8 escapes and empty keys, quoting the pair', () => {
    for (const [qs, pair] of [
      ['a=1;b=2', 'a=1;b=2'],
      ['x=1&a=%zz', 'a=%zz'],
      ['a=%4', 'a=%4'],
      ['a=%', 'a=%'],
      ['a=%C3%28', 'a=%C3%28'],
      ['=v', '=v'],
    ]) {
      const e = thrown(() => parseQueryString(qs));
      expect(e.code, qs).toBe('invalid_parameter');
      expect(e.message).toContain(JSON.stringify(pair));
    }
  });
});

describe('checkParams', () => {
  it('retired names are unknown_parameter naming the replacement; unknown keys list the accepted ones', () => {
    const e = thrown(() => checkParams(route('spot_prices'), [['pagination_key', 'x']]));
    expect(e.code).toBe('unknown_parameter');
    expect(e.message).toMatch(/renamed to cursor/);
    const u = thrown(() => checkParams(route('wallet_profile'), [['addr', '0x']]));
    expect(u.message).toBe('unknown parameter "addr"; accepted parameters: address, username');
  });

  it('repeated parameters are invalid except the repeatable lookup ids', () => {
    expect(thrown(() => checkParams(route('markets_list'), [['provider', 'venue_1'], ['provider', 'venue_2']])).code).toBe('invalid_parameter');
    expect(checkParams(route('sports_lookup'), [['event_id', 'a'], ['event_id', 'b'], ['source_id', 'c']])).toEqual({ event_id: ['a', 'b'], source_id: ['c'] });
  });
});

describe('typeParams', () => {
  it('integers within range, booleans, case-insensitive enums, real dates, defaults', () => {
    const r = route('sports_list');
    expect(typeParams(r, { limit: '100', league: 'WNBA', scheduled_date: '2028-02-29', include_settled: 'True' })).toMatchObject({
      limit: 100,
      league: 'wnba',
      scheduled_date: '2028-02-29',
      include_settled: true,
      include_submarkets: false,
    });
    for (const q of [{ limit: '0' }, { limit: '101' }, { limit: '1.5' }, { limit: '' }, { scheduled_date: '2026-02-29' }, { scheduled_date: '2026-13-01' }, { include_rules: '1' }, { player_prop_match: 'loose' }]) {
      expect(thrown(() => typeParams(r, q)).code, JSON.stringify(q)).toBe('invalid_parameter');
    }
    expect(typeParams(route('sports_lookup'), {})).toMatchObject({ include_submarkets: true });
    expect(thrown(() => typeParams(route('markets_list'), { provider: 'kalshi' })).message).toContain('venue_1, venue_2');
  });
});

describe('compilePathMatcher', () => {
  it('knows which methods a path accepts', () => {
    const m = compilePathMatcher(ROUTES);
    expect(m.allowed('/v1/markets/abc')).toEqual(['GET']);
    expect(m.allowed('/v1/account/billing/portal')).toEqual(['POST']);
    expect(m.allowed('/v1/markets/abc/def')).toBeUndefined();
    expect(m.allowed('/v1/openapi.json')).toEqual(['GET']);
    expect(m.allowed('/v1/openapiXjson')).toBeUndefined();
  });
});
