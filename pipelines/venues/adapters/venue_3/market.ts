// venue_3's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: market record.
import { builtOnce, iso, availabilityOf, assemble, outcome, stamped, recordQuote, type LiveIO, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, need, num, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { isApiError } from '../../../../lib/errors.ts';
import { feesNotPublished, feesPerAccount, feesUnavailable } from '../../fees.ts';

export function venue3Status(s: string): string {
  return s === 'resolved' ? 'settled' : s === 'halted' ? 'suspended' : s;
}

export function buildVenue3(raw: unknown, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_3 market');
  const id = need(str(m.id), 'venue_3 market.id');
  const status = venue3Status(String(m.status ?? ''));
  let wide = false;
  const maxSpread = isRec(m.quote_rules) ? num(m.quote_rules.max_spread) : null;
  const outcomes = arr(m.outcomes).map((o, i) => {
    const r = rec(o, 'venue_3 outcome');
    const bid = num(r.best_bid);
    const ask = num(r.best_ask);
    // "A market whose book is outside the venue's own published spread threshold reports indicative."
    if (maxSpread !== null && bid !== null && ask !== null && ask - bid > maxSpread + 1e-9) wide = true;
    const q = recordQuote(bid, ask, num(r.last_price));
    if (status === 'settled') {
      const res = str(m.resolution);
      q.bid = null;
      q.ask = null;
      q.price = res === null || res === 'void' ? null : res === str(r.token) ? 1 : 0;
    }
    return outcome(str(r.name) ?? `Outcome ${i + 1}`, str(r.token) ?? String(i), q);
  });
  const fees = isRec(m.fees) && m.fees.schedule === 'account' ? feesPerAccount(observedAt, 'market_record') : isRec(m.fees) ? feesUnavailable(observedAt, 'market_record') : feesNotPublished(observedAt);
  return assemble(
    {
      provider: 'venue_3',
      providerId: id,
      title: str(m.title) ?? id,
      status,
      closeTime: isoTime(m.closes_at),
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes, wide),
        source: 'market_record',
        ...stamped(isoTime(m.updated_at), 'record_refresh'),
        neg_risk: false,
      },
      fees,
      liquidityUsd: num(m.liquidity_usd),
      volume24hUsd: num(m.volume_24h_usd),
      volumeTotalUsd: num(m.volume_usd),
      openInterest: num(m.open_interest),
    },
    observedAt,
  );
}

/**
 * venue_3 read by id. venue_3 ids are numeric; a slug only reaches here from the venue_2/venue_3
 * probe, and the venue's 400 for a malformed id then means "not held here", not a rejection.
 */
export function venue3Get(io: LiveIO, id: string): Promise<unknown | NotFound> {
  const read = io.get('venue_3', `/venue_3/v1/markets/${encodeURIComponent(id)}`);
  // A numeric id's read as it comes (no async step of its own); a slug's with the 400 read as 404.
  if (NUMERIC_ID.test(id)) return read;
  return read.catch((e: unknown) => {
    if (isApiError(e) && e.code === 'upstream_rejected') return NOT_FOUND;
    throw e;
  });
}

const NUMERIC_ID = /^[0-9]+$/;

export async function readVenue3(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const r = await venue3Get(io, id);
  if (r === NOT_FOUND) return NOT_FOUND;
  const data = rec(r, 'venue_3 answer').data;
  return builtOnce(data, [observedAt], () => buildVenue3(data, observedAt));
}
