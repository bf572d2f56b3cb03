// The read-model sinks' pure parts: the market document spliced from JSON text must read exactly as
// the document built from the parsed body, and a body that is not object text stays a string.
import { describe, expect, it } from 'vitest';
import type { CanonicalMarket } from '../topics.ts';
import { loadConfig } from '../../lib/config.ts';
import { BACKBONE_SINKS, backboneSinks, marketDoc, priceHistorySink } from './sinks.ts';

const market = (body: string): CanonicalMarket => ({
  provider: 'venue_3',
  market_id: `m-${Math.random().toString(36).slice(2)}`,
  event_id: null,
  title: 'Will "quotes" \\ and ünïcode survive?',
  status: 'open',
  category: 'sports',
  league: null,
  market_type: null,
  read_started_at: 1_767_225_600_123,
  body_version: 1,
  body,
});

describe('marketDoc', () => {
  it('reads back as the typed fields plus the parsed body', () => {
    const body = JSON.stringify({ outcomes: [{ name: 'Yes', price: 0.5 }], rules: 'a "b" \\ c\n' });
    const m = market(body);
    expect(JSON.parse(marketDoc(m).text)).toEqual({
      provider: m.provider,
      market_id: m.market_id,
      event_id: null,
      title: m.title,
      status: 'open',
      category: 'sports',
      league: null,
      market_type: null,
      read_started_at: 1_767_225_600_123,
      body: JSON.parse(body),
    });
  });

  it('keeps a body that is not object text as a string, so the document stays valid JSON', () => {
    for (const body of ['', 'not json', '[1,2]', ' {"a":1}']) expect(JSON.parse(marketDoc(market(body)).text).body).toBe(body);
  });
});

describe('backboneSinks', () => {
  it('runs every sink by default and all but the price-history sink with PRICE_HISTORY=false', () => {
    expect(backboneSinks(loadConfig({}))).toEqual(BACKBONE_SINKS);
    const off = backboneSinks(loadConfig({ PRICE_HISTORY: 'false' }));
    expect(off).not.toContain(priceHistorySink);
    expect(off).toEqual(BACKBONE_SINKS.filter((d) => d.name !== 'sink.price-history'));
  });
});
