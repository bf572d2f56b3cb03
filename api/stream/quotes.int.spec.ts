// GET /v1/stream?channel=quotes against a real log: raw venue records written to `raw.venue_N` the
// way the pollers write them (logRawSink) reach SSE and WebSocket clients as `quote` events through
// the quotes hub. Every suite runs on the embedded log and, where KAFKA_BROKERS is set (CI), on
// Kafka. Resume is checked against the log itself: the prices a client got across a forced
// disconnect are the price changes the log holds after its snapshot, nothing lost, nothing twice.
/* eslint-disable @typescript-eslint/no-explicit-any -- event bodies are read as loose JSON */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROVIDERS, rawTopicId, type RawRecord } from '../../pipelines/topics.ts';
import { logRawSink } from '../../pipelines/venues/pollers/sink.ts';
import { buildVenue1 } from '../../pipelines/venues/adapters/venue_1/market.ts';
import { buildVenue2 } from '../../pipelines/venues/adapters/venue_2/market.ts';
import { buildVenue7 } from '../../pipelines/venues/adapters/venue_7/market.ts';
import { feesUnavailable } from '../../pipelines/venues/fees.ts';
import { decodeQuoteId, encodeQuoteId, type QuotesHub } from './quotes-hub.ts';
import { openSse } from './sse-client.ts';
import { logImpls, openBackbone, serveStream, type LogImpl } from './stream.testkit.ts';

const impls = await logImpls('quotes');

const hex64 = () => `0x${randomBytes(32).toString('hex')}`;
const word = () => randomBytes(3).toString('hex');

// Venue records in the shapes the listings publish (pipelines/venues/simulator/FORMATS.md).
function v1Market(ticker: string, yesBid: number, o: { status?: string } = {}) {
  return { ticker, event_ticker: ticker.split('-').slice(0, 2).join('-'), title: `${ticker} winner?`, status: o.status ?? 'active', result: '', yes_bid: yesBid, yes_ask: yesBid + 2, no_bid: 98 - yesBid, no_ask: 100 - yesBid, last_price: yesBid + 1, volume: 100, volume_24h: 10, liquidity: 5000, open_interest: 50 };
}
function v2Market(id: string, slug: string, conditionId: string, bid: number) {
  return {
    id,
    question: `Market ${id}`,
    conditionId,
    slug,
    outcomes: '["Lakers","Celtics"]',
    outcomePrices: JSON.stringify([String(bid + 0.01), String(0.99 - bid)]),
    clobTokenIds: '["111","222"]',
    active: true,
    closed: false,
    bestBid: bid,
    bestAsk: bid + 0.02,
    lastTradePrice: bid + 0.01,
    negRisk: false,
    umaResolutionStatus: null,
    updatedAt: new Date().toISOString(),
    events: [{ id: '71022' }],
  };
}
/** A venue_7 event: moneyline (pair only) and a handicap with one line (pair and three-part id). */
function v7Event(eventId: number, odds: number, handicapOdds = 1.9) {
  const sel = (a: number, b: number) => [
    { id: 1, name: 'Away', back: [{ odds: a, stake: 100 }] },
    { id: 2, name: 'Home', back: [{ odds: b, stake: 100 }] },
  ];
  return {
    event_id: eventId,
    name: 'Away at Home',
    state: 'open',
    commission_pct: 2,
    markets: [
      { id: `${eventId}:1`, type_id: 1, name: 'Moneyline', state: 'open', lines: [{ line: null, favourite: true, selections: sel(odds, 3.5) }] },
      { id: `${eventId}:2`, type_id: 2, name: 'Handicap', state: 'open', lines: [{ line: -1.5, favourite: true, selections: sel(handicapOdds, 2.1) }] },
    ],
  };
}
function v9Parent(id: string, children: Array<{ id: string; yes: number; status?: string }>) {
  return {
    id,
    title: 'BUL vs HEA',
    kind: 'game',
    children: children.map((c) => ({ id: c.id, pair: `${id}:${c.id}`, title: `Team ${c.id.slice(2, 6)}`, yes_price: c.yes, status: c.status ?? 'trading', resolved_to: null, volume: 10, fee_rate_bps: 100, updated_at: new Date().toISOString() })),
  };
}
function v4Market(hash: string, status = 'ACTIVE') {
  return { marketHash: hash, status, outcomeOneName: 'Chicago Bulls', outcomeTwoName: 'Miami Heat', ...(status === 'SETTLED' && { outcome: 1 }) };
}

type Put = (venue: (typeof PROVIDERS)[number], recordType: string, nativeId: string, payload: unknown, at?: number) => Promise<RawRecord>;

async function harness(impl: LogImpl, o: { journal?: number; bufferBytes?: number; lookbackMs?: number; onDemand?: boolean; before?: (put: Put) => Promise<void> } = {}) {
  const b = await openBackbone(impl, { prefix: 'qs', topics: ['matched.events', 'lifecycle.states', ...PROVIDERS.map((p) => rawTopicId(p))] });
  const sink = logRawSink(b.producer, b.serde, b.topics);
  let written = 0;
  /** Writes one venue record as its poller would (read began now, or at `at`). */
  const put: Put = async (venue, recordType, nativeId, payload, at = Date.now()) => {
    const r: RawRecord = { venue, record_type: recordType, native_id: nativeId, read_started_at: at, payload: JSON.stringify(payload), read_id: null, source_url: null };
    await sink(venue, [r]);
    written++;
    return r;
  };
  await o.before?.(put);
  const h = await serveStream(
    b,
    { STREAM_HEARTBEAT_MS: 60_000, STREAM_BUFFER_BYTES: o.bufferBytes ?? 1_048_576, STREAM_FLUSH_MS: 20, STREAM_JOURNAL: o.journal ?? 20_000, STREAM_RESUME_MS: 3_600_000, STREAM_QUOTES_LOOKBACK_MS: o.lookbackMs },
    { quotes: o.onDemand ? 'on-demand' : true },
  );
  const { area } = h;
  // On demand, the hub exists once a quotes subscription started it.
  const quotes = area.quotes ?? ({ get records() { return area.deps.quotes?.records ?? 0; } } as QuotesHub);
  return {
    ...h,
    quotes,
    put,
    /** Waits until the hub has read every record written so far (`skipped`: before its start). */
    applied: (skipped = 0) => h.until(() => quotes.records >= written - skipped, () => `quotes hub read ${quotes.records} of ${written} records`),
    /** Every record of one raw topic, read from the log itself. */
    logRecords: (venue: (typeof PROVIDERS)[number], count: number) => h.topicRecords(b.topics[rawTopicId(venue)].name, count),
  };
}

const data = (e: { data: string }) => JSON.parse(e.data) as any;
/** An id's log position (without the subscription's tag after `~`). */
const untagged = (id: string) => id.slice(0, id.lastIndexOf('~'));
const qs = (ids: string[]) => `channel=quotes&${ids.map((i) => `market_id=${encodeURIComponent(i)}`).join('&')}`;

describe.each(impls)('GET /v1/stream?channel=quotes on the $name', (impl) => {
  it('on demand: no hub until the first quotes subscription, which gets the snapshot of what the log quoted', async () => {
    const h = await harness(impl, { onDemand: true });
    const t1 = `KXNBAGAME-26NOV26${word().toUpperCase()}-BOS`;
    const at0 = Date.now() - 1000;
    const r1 = await h.put('venue_1', 'market', t1, v1Market(t1, 37), at0);
    expect(h.area.deps.quotes).toBeUndefined();
    const c = await h.open(qs([t1]));
    expect(c.status).toBe(200);
    await c.waitFor((e) => e.length >= 1);
    expect(h.area.deps.quotes).toBeDefined();
    const built = buildVenue1(JSON.parse(r1.payload), feesUnavailable(new Date(at0).toISOString(), null), new Date(at0).toISOString());
    expect(c.events[0]!.event).toBe('snapshot');
    expect(data(c.events[0]!).data).toEqual([{ market_id: `venue_1:${t1}`, status: 'open', outcomes: built.outcomes, pricing: built.pricing }]);
  });

  it('starts with a snapshot of the markets named, then one quote event per change: outcomes and pricing as market detail builds them', async () => {
    const h = await harness(impl);
    const t1 = `KXNBAGAME-26NOV26${word().toUpperCase()}-CHI`;
    const v2 = { id: String(9_000_000 + Math.floor(Math.random() * 99_999)), slug: `nba-${word()}-phx`, cond: hex64() };
    const ev7 = 30_000_000 + Math.floor(Math.random() * 99_999);
    const [p9, c9a, c9b] = [hex64(), hex64(), hex64()];
    const h4 = hex64();
    const quiet = `KXNBAGAME-26NOV26${word().toUpperCase()}-MIA`;
    const at0 = Date.now() - 1000;
    const r1 = await h.put('venue_1', 'market', t1, v1Market(t1, 40), at0);
    await h.put('venue_1', 'market', quiet, v1Market(quiet, 20), at0);
    await h.applied();
    // A venue_2 market by its slug (an alias the log taught the hub), venue_1 by a lower-case ticker,
    // venue_7 by its pair and by its three-part id with the line spelled another way.
    const ids = [t1.toLowerCase(), `venue_2:${v2.slug}`, `venue_7:${ev7}:1`, `venue_7:${ev7}:2`, `venue_7:${ev7}:2:-1.50`, `venue_9:${p9}:${c9a}`, `venue_9:${p9}`, h4];
    const c = await h.open(qs(ids));
    expect(c.status).toBe(200);
    await c.waitFor((e) => e.length >= 1);
    expect(c.events[0]!.event).toBe('snapshot');
    const snap = data(c.events[0]!);
    expect(snap.channel).toBe('quotes');
    // Only t1 has been quoted yet; the quiet market was not named.
    const built1 = buildVenue1(JSON.parse(r1.payload), feesUnavailable(new Date(at0).toISOString(), null), new Date(at0).toISOString());
    expect(snap.data).toEqual([{ market_id: `venue_1:${t1}`, status: 'open', outcomes: built1.outcomes, pricing: built1.pricing }]);

    // The same poll again (quotes unchanged, read later): nothing. The quiet market's poll: nothing.
    await h.put('venue_1', 'market', t1, v1Market(t1, 40));
    await h.put('venue_1', 'market', quiet, v1Market(quiet, 20));
    const r2 = await h.put('venue_2', 'market', v2.id, v2Market(v2.id, v2.slug, v2.cond, 0.45));
    const r7 = await h.put('venue_7', 'event', String(ev7), v7Event(ev7, 1.65));
    await h.put('venue_9', 'parent', p9, v9Parent(p9, [{ id: c9a, yes: 0.36 }, { id: c9b, yes: 0.64 }]));
    await h.put('venue_4', 'market', h4, v4Market(h4));
    // Only the venue_7 handicap moves (the moneyline and every other market stay as they were).
    const r7b = await h.put('venue_7', 'event', String(ev7), v7Event(ev7, 1.65, 1.8));
    await h.put('venue_1', 'market', t1, v1Market(t1, 41));
    await h.put('venue_4', 'market', h4, v4Market(h4, 'SETTLED'));
    await h.applied();
    const seen = () => c.events.slice(1).map((e) => `${e.event} ${data(e).market_id}`);
    await c.waitFor((e) => e.length >= 12, 30_000, 'the quote changes');
    // Per market in log order (records of different venues sit on different topics and may interleave).
    const of = (id: string) => seen().filter((s) => s.endsWith(` ${id}`));
    expect(of(`venue_1:${t1}`)).toEqual([`quote venue_1:${t1}`]);
    expect(of(`venue_2:${v2.id}`)).toEqual([`quote venue_2:${v2.id}`]);
    expect(of(`venue_7:${ev7}:1`)).toEqual([`quote venue_7:${ev7}:1`]);
    // The handicap pair and its line are two markets, each moving twice.
    expect(of(`venue_7:${ev7}:2`)).toEqual([`quote venue_7:${ev7}:2`, `quote venue_7:${ev7}:2`]);
    expect(of(`venue_7:${ev7}:2:-1.5`)).toEqual([`quote venue_7:${ev7}:2:-1.5`, `quote venue_7:${ev7}:2:-1.5`]);
    expect(of(`venue_9:${p9}:${c9a}`)).toHaveLength(1);
    expect(of(`venue_9:${p9}`)).toHaveLength(1);
    expect(of(`venue_4:${h4}`)).toHaveLength(2);
    expect(seen()).toHaveLength(11);
    expect(seen().some((s) => s.includes(quiet) || s.includes(c9b))).toBe(false);

    const last = (id: string) => data([...c.events].reverse().find((e) => e.event === 'quote' && data(e).market_id === id)!);
    // Each quote is the detail route's outcomes and pricing built from the same record.
    const obs = (r: RawRecord) => new Date(r.read_started_at).toISOString();
    const b2 = buildVenue2(JSON.parse(r2.payload), obs(r2));
    expect(last(`venue_2:${v2.id}`)).toEqual({ market_id: `venue_2:${v2.id}`, status: 'open', outcomes: b2.outcomes, pricing: b2.pricing });
    const b7 = buildVenue7(JSON.parse(r7b.payload), `${ev7}:2:-1.5`, obs(r7b)) as any;
    expect(last(`venue_7:${ev7}:2:-1.5`)).toEqual({ market_id: `venue_7:${ev7}:2:-1.5`, status: 'open', outcomes: b7.outcomes, pricing: b7.pricing });
    const b7ml = buildVenue7(JSON.parse(r7.payload), `${ev7}:1`, obs(r7)) as any;
    expect(last(`venue_7:${ev7}:1`).outcomes).toEqual(b7ml.outcomes);
    expect(last(`venue_1:${t1}`).outcomes[0]).toMatchObject({ name: 'Yes', outcome_id: 'yes', bid: 0.41, ask: 0.43 });
    expect(Object.keys(last(`venue_1:${t1}`).pricing)).toEqual(['availability', 'scale', 'source', 'as_of', 'as_of_kind', 'observed_at', 'neg_risk']);
    // A venue_9 child: the record's mark, indicative (the pollers read no book); the parent: a group view.
    expect(last(`venue_9:${p9}:${c9a}`)).toMatchObject({ status: 'open', outcomes: [{ name: 'Yes', price: 0.36, bid: null, ask: null }, { name: 'No', price: 0.64 }], pricing: { availability: 'indicative', source: 'orderbook' } });
    expect(last(`venue_9:${p9}`).outcomes.map((x: any) => x.outcome_id)).toEqual([`${p9}:${c9a}`, `${p9}:${c9b}`]);
    // venue_4 prices live only in its book: no quote while open, the settlement once settled.
    const v4 = c.events.filter((e) => e.event === 'quote' && data(e).market_id === `venue_4:${h4}`).map(data);
    expect(v4.map((x) => [x.status, x.pricing.availability])).toEqual([
      ['open', 'unavailable'],
      ['settled', 'indicative'],
    ]);
    // Ids are distinct log positions.
    expect(new Set(c.events.map((e) => e.id)).size).toBe(c.events.length);
  });

  for (const mode of ['journal', 'folded state'] as const) {
    it(`resumes after a forced disconnect from the ${mode} with nothing lost or doubled (against the log)`, async () => {
      const h = await harness(impl, { journal: mode === 'journal' ? 20_000 : 3 });
      const tickers = Array.from({ length: 5 }, (_, i) => `KXNBAGAME-26NOV26R${word().toUpperCase()}${i}-CHI`);
      let version = 0;
      // Each write moves one market's bid (cents 10..89) or, every fourth, repeats its last poll.
      const bids = new Map<string, number>();
      const write = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const k = tickers[version % tickers.length]!;
          version++;
          const bid = version % 4 === 0 ? (bids.get(k) ?? 50) : 10 + (version % 80);
          bids.set(k, bid);
          await h.put('venue_1', 'market', k, v1Market(k, bid));
        }
      };
      await write(10);
      await h.applied();
      const first = await h.open(qs(tickers));
      await first.waitFor((e) => e.length >= 1);
      const at = decodeQuoteId(h.quotes.layout, untagged(first.events[0]!.id!))!.pos;
      const posOf = (partition: number) => at[h.quotes.layout.index.get(`${h.topics['raw.venue_1'].name}|${partition}`)!]!;
      const before = new Map<string, unknown>(data(first.events[0]!).data.map((q: any) => [q.market_id as string, q.outcomes[0].bid]));
      await write(15);
      await first.waitFor((e) => e.length >= 6, 30_000, 'some live events before the disconnect');
      first.destroy();
      const got = first.events.slice(1);
      const last = first.lastId()!;
      await write(15);
      await h.applied();
      const second = await h.open(qs(tickers), { 'last-event-id': last });
      await write(10);
      await h.applied();
      // The log, read back: per market, its bid at each record after the snapshot's position,
      // a repeat of the bid before it (an unchanged poll) dropped.
      const records = await h.logRecords('venue_1', version);
      const expected = new Map<string, number[]>();
      const lastBid = new Map(before);
      for (const r of records) {
        const p = JSON.parse(JSON.parse(r.value!.toString()).payload);
        const id = `venue_1:${p.ticker}`;
        const bid = p.yes_bid / 100;
        if (Number(r.offset) >= posOf(r.partition) && lastBid.get(id) !== bid) expected.set(id, [...(expected.get(id) ?? []), bid]);
        lastBid.set(id, bid);
      }
      const total = [...expected.values()].reduce((n, l) => n + l.length, 0);
      if (mode === 'journal') await second.waitFor((e) => got.length + e.length >= total, 30_000, 'every change after the resume');
      else await second.waitFor((e) => [...expected].every(([id, l]) => e.some((x) => data(x).market_id === id && data(x).outcomes[0].bid === l[l.length - 1])), 30_000, 'the latest of every market');
      expect(second.events[0]!.event).toBe('quote');
      const streamed = new Map<string, number[]>();
      for (const e of [...got, ...second.events]) {
        const d = data(e);
        streamed.set(d.market_id, [...(streamed.get(d.market_id) ?? []), d.outcomes[0].bid]);
      }
      expect([...streamed.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [k, fromLog] of expected) {
        const mine = streamed.get(k)!;
        if (mode === 'journal') expect(mine, `quotes of ${k}`).toEqual(fromLog);
        else {
          expect(mine[mine.length - 1], `latest of ${k}`).toBe(fromLog[fromLog.length - 1]);
          let j = 0;
          for (const x of mine) {
            while (j < fromLog.length && fromLog[j] !== x) j++;
            expect(j, `${x} of ${k} follows the one before it in the log`).toBeLessThan(fromLog.length);
            j++;
          }
        }
      }
    });
  }

  it('resumes inside a record that quotes several markets with the rest of that record, none twice', async () => {
    const h = await harness(impl);
    const ev = 31_000_000 + Math.floor(Math.random() * 99_999);
    const ids = [`venue_7:${ev}:1`, `venue_7:${ev}:2`, `venue_7:${ev}:2:-1.5`];
    const c = await h.open(qs(ids));
    await c.waitFor((e) => e.length >= 1);
    await h.put('venue_7', 'event', String(ev), v7Event(ev, 1.65));
    await c.waitFor((e) => e.length >= 4, 30_000, 'three markets of one record');
    const [a, b] = c.events.slice(1);
    // The first two name the record as not yet done; the third the position after it.
    expect(decodeQuoteId(h.quotes.layout, untagged(a!.id!))!.within).toEqual({ part: expect.any(Number), count: 1 });
    expect(decodeQuoteId(h.quotes.layout, untagged(b!.id!))!.within).toMatchObject({ count: 2 });
    expect(decodeQuoteId(h.quotes.layout, untagged(c.events[3]!.id!))!.within).toBeNull();
    for (const [from, rest] of [
      [a!, 2],
      [b!, 1],
    ] as const) {
      const again = await h.open(qs(ids), { 'last-event-id': from.id! });
      await h.put('venue_1', 'market', 'KXNBA-X-SENTINEL', v1Market('KXNBA-X-SENTINEL', 10));
      await h.applied();
      await again.waitFor((e) => e.length >= rest, 30_000, 'the rest of the record');
      expect(again.events.map((e) => data(e).market_id)).toEqual(c.events.slice(4 - rest).map((e) => data(e).market_id));
      again.destroy();
    }
  });

  it('reads the raw topics from the lookback on: older reads are not quoted', async () => {
    const [a, b] = [`KXNBAGAME-26NOV26L${word().toUpperCase()}-CHI`, `KXNBAGAME-26NOV26L${word().toUpperCase()}-MIA`];
    const hours = (n: number) => Date.now() - n * 3_600_000;
    const h = await harness(impl, {
      lookbackMs: 3_600_000,
      before: async (put) => {
        await put('venue_1', 'market', a, v1Market(a, 30), hours(3));
        await put('venue_1', 'market', b, v1Market(b, 30), hours(3));
        await put('venue_1', 'market', b, v1Market(b, 31), hours(0.5));
      },
    });
    await h.applied(2);
    const c = await h.open(qs([a, b]));
    await c.waitFor((e) => e.length >= 1);
    expect(data(c.events[0]!).data.map((q: any) => [q.market_id, q.outcomes[0].bid])).toEqual([[`venue_1:${b}`, 0.31]]);
    expect(h.quotes.records).toBe(1);
    // The first read of a after the start is a change (the hub never saw it quoted).
    await h.put('venue_1', 'market', a, v1Market(a, 30));
    await c.waitFor((e) => e.length >= 2);
    expect(c.events.slice(1).map((e) => [e.event, data(e).market_id])).toEqual([['quote', `venue_1:${a}`]]);
  });

  it('answers an id it cannot resume with reset, then a fresh snapshot', async () => {
    const h = await harness(impl);
    const t1 = `KXNBAGAME-26NOV26${word().toUpperCase()}-CHI`;
    await h.put('venue_1', 'market', t1, v1Market(t1, 40));
    await h.applied();
    const c = await h.open(qs([`venue_1:${t1}`]), { 'last-event-id': 'zzzzzz-1-0.0' });
    await c.waitFor((e) => e.length >= 2);
    expect(c.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    expect(data(c.events[0]!).message).toContain('"zzzzzz-1-0.0"');
    expect(data(c.events[1]!).data.map((q: any) => q.market_id)).toEqual([`venue_1:${t1}`]);
  });

  it('answers an id of another set of markets or another channel with reset and a snapshot of these (it would miss every quote that did not change since)', async () => {
    const h = await harness(impl);
    const [a, b] = [`KXNBAGAME-26NOV26${word().toUpperCase()}-CHI`, `KXNBAGAME-26NOV26${word().toUpperCase()}-MIA`];
    await h.put('venue_1', 'market', a, v1Market(a, 40));
    await h.put('venue_1', 'market', b, v1Market(b, 50));
    await h.applied();
    const one = await h.open(qs([`venue_1:${a}`]));
    await one.waitFor((e) => e.length >= 1);
    const sports = await h.open('channel=sports');
    await sports.waitFor((e) => e.length >= 1);
    for (const id of [one.lastId()!, sports.lastId()!]) {
      const two = await h.open(qs([`venue_1:${a}`, `venue_1:${b}`]), { 'last-event-id': id });
      await two.waitFor((e) => e.length >= 2, 10_000, `reset and snapshot for ${id}`);
      expect(two.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
      expect(data(two.events[1]!).data.map((q: any) => q.outcomes[0].bid)).toEqual([0.4, 0.5]);
      two.destroy();
    }
    // The same markets named in another form and order, a repeat among them: resumed, nothing missed.
    const again = await h.open(qs([a, `venue_1:${a}`]), { 'last-event-id': one.lastId()! });
    await h.put('venue_1', 'market', a, v1Market(a, 41));
    await again.waitFor((e) => e.length >= 1, 30_000, 'the live quote');
    expect(again.events.map((e) => [e.event, data(e).outcomes[0].bid])).toEqual([['quote', 0.41]]);
  });

  it('a market named in several forms (bare, composite, lower case, repeated) is one market: once in the snapshot, once per change', async () => {
    const h = await harness(impl);
    const t1 = `KXNBAGAME-26NOV26${word().toUpperCase()}-CHI`;
    await h.put('venue_1', 'market', t1, v1Market(t1, 40));
    await h.applied();
    const c = await h.open(qs([t1, `venue_1:${t1}`, t1.toLowerCase(), `VENUE_1:${t1.toLowerCase()}`, t1]));
    expect(c.status).toBe(200);
    await c.waitFor((e) => e.length >= 1);
    expect(data(c.events[0]!).data.map((q: any) => q.market_id)).toEqual([`venue_1:${t1}`]);
    await h.put('venue_1', 'market', t1, v1Market(t1, 41));
    await h.put('venue_1', 'market', 'KXNBA-X-SENTINEL2', v1Market('KXNBA-X-SENTINEL2', 10));
    await h.applied();
    await c.waitFor((e) => e.length >= 2, 30_000, 'the change');
    await new Promise((r) => setTimeout(r, 200));
    expect(c.events.slice(1).map((e) => [e.event, data(e).outcomes[0].bid])).toEqual([['quote', 0.41]]);
  });

  it('answers an id past the end of the log (the log was recreated since) with reset and a fresh snapshot, then live quotes', async () => {
    const h = await harness(impl);
    h.area.deps.aheadMs = 300;
    const t1 = `KXNBAGAME-26NOV26${word().toUpperCase()}-CHI`;
    await h.put('venue_1', 'market', t1, v1Market(t1, 40));
    await h.applied();
    const future = encodeQuoteId(h.quotes.layout, Date.now(), h.quotes.pos.map((x) => x + 1000), null);
    const c = await h.open(qs([`venue_1:${t1}`]), { 'last-event-id': future });
    await c.waitFor((e) => e.length >= 2, 30_000, 'reset and snapshot');
    expect(c.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    expect(data(c.events[1]!).data.map((q: any) => q.outcomes[0].bid)).toEqual([0.4]);
    await h.put('venue_1', 'market', t1, v1Market(t1, 41));
    await c.waitFor((e) => e.length >= 3, 30_000, 'the live quote after the reset');
    expect([c.events[2]!.event, data(c.events[2]!).outcomes[0].bid]).toEqual(['quote', 0.41]);
  });

  it('checks the key, the permission and every market_id with the spec error bodies quoting the value', async () => {
    const h = await harness(impl);
    const v2 = { id: String(9_100_000 + Math.floor(Math.random() * 99_999)), slug: `nba-${word()}-lal` };
    await h.put('venue_2', 'market', v2.id, v2Market(v2.id, v2.slug, hex64(), 0.3));
    await h.put('venue_3', 'market', v2.id, { id: Number(v2.id), title: 'X @ Y', status: 'open', outcomes: [] });
    await h.applied();
    const noPerm = await h.keyOf('pro', ['markets.read']);
    const hundredOne = Array.from({ length: 101 }, (_, i) => `venue_1:KXA-${i}`);
    const ulid = '01M7V7FAM0JQ1V5P8YK9MGSA7H';
    const cases: Array<[string, Record<string, string>, number, string, string | undefined, string[]]> = [
      [qs(['KXA-1']), {}, 401, 'missing_api_key', undefined, []],
      [qs(['KXA-1']), h.t.auth(noPerm), 403, 'forbidden', undefined, []],
      ['channel=quotes', h.t.auth(h.key), 400, 'missing_parameter', 'market_id', []],
      ['channel=quotes&market_id=', h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', []],
      [qs(['venue_10:abc']), h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', ['"venue_10:abc"']],
      [qs([ulid]), h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', [`"${ulid}"`, `venue_6:${ulid}`]],
      [qs(['venue_3:not-a-number', 'venue_4:L123']), h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', ['"not-a-number"', '"L123"']],
      // venue_2 and venue_3 both hold this number; a slug neither has quoted.
      [qs([v2.id]), h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', [`"${v2.id}"`, `venue_2:${v2.id} or venue_3:${v2.id}`]],
      [qs(['some-unknown-slug']), h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', ['"some-unknown-slug"', 'neither']],
      [qs(hundredOne), h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', ['at most 100', '101']],
      [`${qs(['venue_1:KXA-1'])}&provider=venue_2`, h.t.auth(h.key), 400, 'invalid_parameter', 'provider', ['"venue_2"']],
      [`${qs(['KXA-1'])}&provider=venue_99`, h.t.auth(h.key), 400, 'invalid_parameter', 'provider', ['"venue_99"']],
      [`${qs(['KXA-1'])}&league=nba`, h.t.auth(h.key), 400, 'invalid_parameter', 'league', ['"nba"']],
      ['channel=sports&market_id=KXA-1', h.t.auth(h.key), 400, 'invalid_parameter', 'market_id', ['"KXA-1"']],
      ['channel=catalog&provider=venue_1', h.t.auth(h.key), 400, 'invalid_parameter', 'provider', ['"venue_1"']],
    ];
    for (const [q, headers, status, code, param, quoted] of cases) {
      const c = await openSse(`${h.base}/v1/stream?${q}`, headers);
      await c.ended;
      expect([q.slice(0, 80), c.status]).toEqual([q.slice(0, 80), status]);
      const body = JSON.parse(c.body);
      expect(body.code).toBe(code);
      if (param) expect(body.param).toBe(param);
      const text = [body.message, ...(body.errors ?? []).map((e: any) => e.message)].join(' | ');
      for (const s of quoted) expect(text, q.slice(0, 80)).toContain(s);
    }
    // Exactly 100 is accepted (repeats count once); a native id with provider, and the venue_2 id
    // by provider, resolve as on market detail.
    const ok = await h.open(`${qs([...hundredOne.slice(0, 100), hundredOne[0]!])}`);
    expect(ok.status).toBe(200);
    ok.destroy();
    const byProvider = await h.open(`${qs([v2.id])}&provider=v2`);
    expect(byProvider.status).toBe(200);
    await byProvider.waitFor((e) => e.length >= 1);
    expect(data(byProvider.events[0]!).data.map((q: any) => q.market_id)).toEqual([`venue_2:${v2.id}`]);
  });

  it('holds the plan limit of concurrent streams across channels', async () => {
    const h = await harness(impl);
    const free = await h.keyOf('free', ['stream.read']);
    const one = await h.open(qs(['venue_1:KXA-1']), {}, free);
    expect(one.status).toBe(200);
    const two = await h.open(qs(['venue_1:KXA-2']), {}, free);
    await two.ended;
    expect(two.status).toBe(429);
    expect(JSON.parse(two.body).code).toBe('rate_limited');
  });

  it('serves the same events over a WebSocket, and resumes from a `resume` message', async () => {
    const h = await harness(impl);
    const t1 = `KXNBAGAME-26NOV26${word().toUpperCase()}-CHI`;
    await h.put('venue_1', 'market', t1, v1Market(t1, 40));
    await h.applied();
    const url = `/v1/stream?${qs([t1])}`;
    const messages: any[] = [];
    const ws = await (h.t.app as any).injectWS(url, { headers: { host: 'localhost', ...h.t.auth(h.key) } });
    ws.on('message', (m: Buffer) => messages.push(JSON.parse(m.toString())));
    ws.send(JSON.stringify({ type: 'start' }));
    const until = async (list: any[], n: number) => {
      for (let i = 0; i < 1500 && list.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    };
    await until(messages, 1);
    expect(messages[0].event).toBe('snapshot');
    expect(messages[0].data.data.map((q: any) => q.outcomes[0].bid)).toEqual([0.4]);
    await h.put('venue_1', 'market', t1, v1Market(t1, 41));
    await until(messages, 2);
    ws.terminate();
    await h.put('venue_1', 'market', t1, v1Market(t1, 41));
    await h.put('venue_1', 'market', t1, v1Market(t1, 42));
    await h.put('venue_1', 'market', t1, v1Market(t1, 43));
    await h.applied();
    const again: any[] = [];
    const ws2 = await (h.t.app as any).injectWS(url, { headers: { host: 'localhost', ...h.t.auth(h.key) } });
    ws2.on('message', (m: Buffer) => again.push(JSON.parse(m.toString())));
    ws2.send(JSON.stringify({ type: 'resume', last_event_id: messages[1].id }));
    await until(again, 2);
    ws2.terminate();
    expect(messages[1]).toMatchObject({ event: 'quote', data: { market_id: `venue_1:${t1}` } });
    expect(messages[1].data.outcomes[0].bid).toBe(0.41);
    expect(again.map((m) => [m.event, m.data.outcomes[0].bid])).toEqual([
      ['quote', 0.42],
      ['quote', 0.43],
    ]);
  });
});
