// Canonicalize, per venue, from what venues publish (pipelines/venues/simulator/FORMATS.md).
// In: one raw venue record as read (a market, or an event/question/parent with its markets nested)
// and when its read began. Out: the canonical markets it contains, each venue's read by its adapter
// (pipelines/venues/adapters/venue_N/canonical.ts, built from canonical-kit.ts). An open market also
// carries the top of book and taker fee its record lists (the adapter's sourceQuotes), which the
// prices view of the sports routes reads. Pure: no I/O, no clock.
import { adapterFor } from '../venues/adapters/index.ts';
import type { MarketQuotes } from './prices.ts';
import type { CanonicalMarket, Provider } from './types.ts';

export { leagueIn, setRosterBook } from './canonical-kit.ts';

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

/** One raw venue record (parsed JSON) to its canonical markets. Never throws on odd input. */
export function canonicalize(provider: Provider, record: unknown, observedAt: number): CanonicalMarket[] {
  if (!record || typeof record !== 'object') return [];
  try {
    const ms = adapterFor(provider).canonicalMarkets(record as J, observedAt);
    for (const m of ms) {
      const q = sourceQuotesOf(provider, record, m);
      if (q) m.quotes = q;
    }
    return ms;
  } catch {
    return [];
  }
}
