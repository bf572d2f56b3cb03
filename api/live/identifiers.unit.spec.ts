import { describe, expect, it } from 'vitest';
import { isApiError } from '../errors.ts';
import { normalizeProviderSpelling, planResolution } from './identifiers.ts';

const H1 = '0x' + 'ab'.repeat(32);
const H2 = '0x' + 'cd'.repeat(32);
const ULID = '01JD5ZQ8M3W6Y9B2C4E7F0G1H2';

function err(f: () => unknown) {
  try {
    f();
  } catch (e) {
    if (isApiError(e)) return { code: e.code, param: e.options.param, message: e.message };
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('provider spellings (tolerated on market and event detail)', () => {
  it.each([
    ['venue_3', 'venue_3'],
    ['VENUE_3', 'venue_3'],
    ['venue3', 'venue_3'],
    ['venue-3', 'venue_3'],
    ['v3', 'venue_3'],
    ['V_9', 'venue_9'],
  ])('%s -> %s', (raw, want) => expect(normalizeProviderSpelling(raw)).toBe(want));
  it.each(['venue_0', 'venue_10', 'kalshi', '3', 'venue'])('rejects %s', (raw) => {
    expect(normalizeProviderSpelling(raw)).toBeUndefined();
    expect(err(() => planResolution('market', '123', raw))).toMatchObject({ code: 'invalid_parameter', param: 'provider' });
  });
});

describe('market route resolution', () => {
  it('composite ids dispatch by prefix; only the text before the first colon is the provider', () => {
    expect(planResolution('market', 'venue_7:3000:2:-3.5', undefined)).toEqual({ kind: 'direct', provider: 'venue_7', nativeId: '3000:2:-3.5' });
    expect(planResolution('market', `venue_9:${H1}:${H2}`, undefined)).toEqual({ kind: 'direct', provider: 'venue_9', nativeId: `${H1}:${H2}` });
    expect(planResolution('market', 'venue_3:1000201', undefined)).toEqual({ kind: 'direct', provider: 'venue_3', nativeId: '1000201' });
  });
  it('a prefix naming no provider is 400 invalid_identifier', () => {
    expect(err(() => planResolution('market', 'venue_10:abc', undefined))).toMatchObject({ code: 'invalid_identifier', param: 'market_id' });
    expect(err(() => planResolution('market', '3000:2', undefined)).code).toBe('invalid_identifier');
  });
  it('a provider contradicting the prefix is 400', () => {
    expect(err(() => planResolution('market', 'venue_2:123', 'venue_3'))).toMatchObject({ code: 'invalid_parameter', param: 'provider' });
    expect(planResolution('market', 'venue_2:123', 'v2')).toMatchObject({ provider: 'venue_2' });
  });
  it('infers venue_1 tickers and venue_4 hashes only', () => {
    expect(planResolution('market', 'KXNBAGAME-26NOV21LALBOS-LAL', undefined)).toEqual({ kind: 'direct', provider: 'venue_1', nativeId: 'KXNBAGAME-26NOV21LALBOS-LAL' });
    expect(planResolution('market', H1.toUpperCase().replace('0X', '0x'), undefined)).toEqual({ kind: 'direct', provider: 'venue_4', nativeId: H1 });
  });
  it('infers lower-case venue_1 tickers by their date code', () => {
    expect(planResolution('market', 'kxnbagame-26nov21lalbos-lal', undefined)).toEqual({ kind: 'direct', provider: 'venue_1', nativeId: 'KXNBAGAME-26NOV21LALBOS-LAL' });
    expect(planResolution('event', 'kxnbagame-26nov21lalbos', undefined)).toMatchObject({ provider: 'venue_1' });
    expect(planResolution('market', 'nba-lal-bos-2026-11-22', undefined)).toMatchObject({ kind: 'probe' });
  });
  it('probes the shared numeric and slug shapes on venue_2 and venue_3', () => {
    expect(planResolution('market', '9000123', undefined)).toEqual({ kind: 'probe', candidates: ['venue_2', 'venue_3'], nativeId: '9000123' });
    expect(planResolution('market', 'nba-lal-bos-2026-11-22', undefined)).toEqual({ kind: 'probe', candidates: ['venue_2', 'venue_3'], nativeId: 'nba-lal-bos-2026-11-22' });
  });
  it('never infers venue_5..9 ids', () => {
    expect(err(() => planResolution('market', ULID, undefined)).code).toBe('invalid_identifier');
    expect(err(() => planResolution('market', `${H1}:${H2}`, undefined)).code).toBe('invalid_identifier');
    expect(planResolution('market', ULID.toLowerCase(), 'venue_6')).toEqual({ kind: 'direct', provider: 'venue_6', nativeId: ULID });
    expect(planResolution('market', '48120033', 'venue_5')).toEqual({ kind: 'direct', provider: 'venue_5', nativeId: '48120033' });
    expect(planResolution('market', 'will-it-rain', 'venue_8')).toMatchObject({ provider: 'venue_8' });
  });
  it('venue_4 fixture ids and venue_7 event ids are 400 on the market route', () => {
    expect(err(() => planResolution('market', 'L7731024', undefined)).code).toBe('invalid_identifier');
    expect(err(() => planResolution('market', 'L7731024', 'venue_4')).code).toBe('invalid_identifier');
    expect(err(() => planResolution('market', '30000412', 'venue_7')).code).toBe('invalid_identifier');
    expect(err(() => planResolution('market', 'venue_7:30000412', undefined)).code).toBe('invalid_identifier');
  });
  it('venue_7 pair and three-part forms; venue_9 parent and pair', () => {
    expect(planResolution('market', '30000412:2', 'venue_7')).toMatchObject({ nativeId: '30000412:2' });
    expect(planResolution('market', '30000412:3:221.5', 'venue_7')).toMatchObject({ nativeId: '30000412:3:221.5' });
    expect(planResolution('market', '30000412:2:+3.5', 'venue_7')).toMatchObject({ nativeId: '30000412:2:+3.5' });
    expect(planResolution('market', H1, 'venue_9')).toMatchObject({ provider: 'venue_9', nativeId: H1 });
  });
  it('venue_1 tickers are case-insensitive once the provider is known', () => {
    expect(planResolution('market', 'kxnbagame-26nov21lalbos-lal', 'venue_1')).toMatchObject({ nativeId: 'KXNBAGAME-26NOV21LALBOS-LAL' });
  });
  it('ids that cannot exist on the named provider are 400 invalid_identifier', () => {
    for (const [id, p] of [
      ['abc', 'venue_6'],
      ['nba-lal', 'venue_3'],
      ['x y', 'venue_2'],
      ['12', 'venue_9'],
      ['Not_A_Slug', 'venue_8'],
    ]) expect(err(() => planResolution('market', id, p)).code).toBe('invalid_identifier');
  });
});

describe('event route resolution', () => {
  it('infers venue_1 event tickers and venue_4 fixtures', () => {
    expect(planResolution('event', 'KXNBAGAME-26NOV21LALBOS', undefined)).toMatchObject({ provider: 'venue_1' });
    expect(planResolution('event', 'l7731024', undefined)).toEqual({ kind: 'direct', provider: 'venue_4', nativeId: 'L7731024' });
  });
  it('probes numeric ids, needs a provider for venue_5..9', () => {
    expect(planResolution('event', '71001', undefined)).toMatchObject({ kind: 'probe', candidates: ['venue_2', 'venue_3'] });
    expect(planResolution('event', '30000412', 'venue_7')).toMatchObject({ provider: 'venue_7', nativeId: '30000412' });
    expect(err(() => planResolution('event', ULID, undefined)).code).toBe('invalid_identifier');
    expect(err(() => planResolution('event', H1, undefined)).code).toBe('invalid_identifier');
    expect(planResolution('event', H1, 'venue_9')).toMatchObject({ provider: 'venue_9' });
  });
});
