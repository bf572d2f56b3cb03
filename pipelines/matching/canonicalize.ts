// Canonicalize, per venue, from what venues publish (pipelines/venues/simulator/FORMATS.md).
// In: one raw venue record as read (a market, or an event/question/parent with its markets nested),
// when its read began, and the roster book props are admitted against. Out: the canonical markets
// it contains, each venue's read by its adapter (pipelines/venues/adapters/venue_N/canonical.ts,
// built from canonical-kit.ts), and whether a prop of it was refused only for want of a fresh
// roster. An open market also carries the top of book and taker fee its record lists (the adapter's
// sourceQuotes), which the prices view of the sports routes reads. Pure: no I/O, no clock.
import { adapterFor } from '../venues/adapters/index.ts';
import type { MarketQuotes } from './prices.ts';
import type { RosterBook } from './props.ts';
import type { CanonicalMarket, MarketReading, Provider } from './types.ts';

export { leagueIn } from './canonical-kit.ts';

/** One record canonicalized: its markets, and whether a prop of it awaits a fresh roster (read the record again when rosters come). */
export interface Canonicalized {
  markets: CanonicalMarket[];
  awaitingRoster: boolean;
}

type J = Record<string, unknown>;
const isRec = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The record canonicalize() reads for one listed market: a venue_1 market joined with its event
 * record (start time, titles), which that venue lists apart under the market's `event_ticker`.
 */
export function withListedEvent(provider: Provider, payload: Record<string, unknown>, eventOf: (ticker: string) => unknown): unknown {
  const join = adapterFor(provider).withListedEvent;
  return join ? join(payload, eventOf) : payload;
}

/** Whether a record is one its venue lists apart for its markets to read (venue_1 events): kept, not canonicalized. */
export function isListedApart(provider: Provider, recordType: string): boolean {
  return adapterFor(provider).listedEventType === recordType;
}

/** The market's quotes from the record it was read from; undefined for a market not open or a venue without a top of book. */
export function sourceQuotesOf(provider: Provider, record: unknown, m: CanonicalMarket): MarketQuotes | undefined {
  if (m.status !== 'open' || !isRec(record)) return undefined;
  const q = adapterFor(provider).sourceQuotes?.(record, m);
  if (!q || !q.outcomes.some((o) => o.bid !== null || o.ask !== null)) return undefined;
  return q;
}

const isMarket = (x: MarketReading): x is CanonicalMarket => !('refused' in x);

/** One raw venue record (parsed JSON) to its canonical markets, props admitted against `rosters`. Never throws on odd input. */
export function canonicalize(provider: Provider, record: unknown, observedAt: number, rosters?: RosterBook): Canonicalized {
  if (!record || typeof record !== 'object') return { markets: [], awaitingRoster: false };
  try {
    const read = adapterFor(provider).canonicalMarkets(record as J, observedAt, rosters);
    const markets = read.every(isMarket) ? read : read.filter(isMarket);
    for (const m of markets) {
      const q = sourceQuotesOf(provider, record, m);
      if (q) m.quotes = q;
    }
    return { markets, awaitingRoster: markets.length < read.length };
  } catch {
    return { markets: [], awaitingRoster: false };
  }
}
