// venue_2's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: market record.
import { builtOnce, EMPTY, iso, availabilityOf, assemble, outcome, stamped, recordQuote, type LiveIO, type OutcomeDetail, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, jsonArray, need, num, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { venue2Fees } from './fees.ts';
import { round6, type Quote } from '../../../../lib/quotes.ts';

export function venue2Status(m: Rec): string {
  if (m.umaResolutionStatus === 'resolved') return 'settled';
  if (m.closed === true) return 'closed';
  if (m.active === true) return 'open';
  return 'closed';
}

export function buildVenue2(raw: unknown, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_2 market');
  const id = need(str(m.id), 'venue_2 market.id');
  const status = venue2Status(m);
  const names = jsonArray(m.outcomes).map(String);
  const tokens = jsonArray(m.clobTokenIds).map(String);
  const marks = jsonArray(m.outcomePrices).map(num);
  const bid = num(m.bestBid);
  const ask = num(m.bestAsk);
  const last = num(m.lastTradePrice);
  const outcomes: OutcomeDetail[] = names.map((name, i) => {
    let q: Quote;
    if (status === 'settled') {
      q = { ...EMPTY, price: marks[i] ?? null, last: i === 0 ? last : last === null ? null : round6(1 - last) };
    } else if (i === 0) {
      q = recordQuote(bid, ask, last, marks[0] ?? null);
    } else {
      // The record quotes the first outcome; the second is its complement.
      q = recordQuote(ask === null ? null : round6(1 - ask), bid === null ? null : round6(1 - bid), last === null ? null : round6(1 - last), marks[i] ?? null);
    }
    return outcome(name, tokens[i] ?? String(i), q);
  });
  const events = arr(m.events);
  const ev = isRec(events[0]) ? str(events[0].id) : null;
  return assemble(
    {
      provider: 'venue_2',
      providerId: id,
      title: str(m.question) ?? id,
      status,
      eventId: ev,
      closeTime: isoTime(m.endDate),
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes),
        source: 'market_record',
        ...stamped(isoTime(m.updatedAt), 'record_refresh'),
        neg_risk: m.negRisk === true,
      },
      fees: venue2Fees(m, observedAt),
      liquidityUsd: num(m.liquidityNum),
      volume24hUsd: num(m.volume24hr),
      volumeTotalUsd: num(m.volumeNum) ?? num(m.volume),
    },
    observedAt,
  );
}

export async function readVenue2(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  if (/^0x[0-9a-f]{64}$/.test(id)) {
    // "a closed venue_2 market resolves by slug and condition id": the condition_ids filter of the
    // listing finds open and closed markets alike.
    const r = await io.get('venue_2', '/venue_2/markets', { condition_ids: id });
    const hit = (r === NOT_FOUND ? [] : arr(r)).find((m) => isRec(m) && String(m.conditionId).toLowerCase() === id);
    return hit ? builtOnce(hit, [observedAt], () => buildVenue2(hit, observedAt)) : NOT_FOUND;
  }
  const path = /^[0-9]+$/.test(id) ? `/venue_2/markets/${id}` : `/venue_2/markets/slug/${encodeURIComponent(id)}`;
  const m = await io.get('venue_2', path);
  return m === NOT_FOUND ? NOT_FOUND : builtOnce(m, [observedAt], () => buildVenue2(m, observedAt));
}
